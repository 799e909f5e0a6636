package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// TestWriteListingsJSON checks that the streaming writer gives exactly
// the bytes writeJSON gives for the same value, for every sample.
func TestWriteListingsJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "transcripts", "*", "*"))
	if len(files) == 0 {
		t.Fatal("no samples")
	}
	for _, p := range files {
		if filepath.Base(filepath.Dir(p)) == "tree" {
			continue // a directory tree, read by testdata/script/transcript_dirs.txtar
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := transcript.Read(f, p, "")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var ls []*transcript.Listing
		for _, tr := range ts {
			ls = append(ls, mustList(t, tr))
		}
		var want, got bytes.Buffer
		if len(ls) == 1 {
			writeJSON(&want, ls[0])
		} else {
			writeJSON(&want, ls)
		}
		if err := writeListingsJSON(&got, ls); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: streaming JSON differs from writeJSON", p)
		}
	}
	// Several listings, one of them empty, and a conversation id that
	// holds the marker text.
	ls := []*transcript.Listing{mustList(t, &transcript.Transcript{Format: "sharegpt", ID: `"messages": null`}),
		mustList(t, &transcript.Transcript{Format: "sharegpt", ID: "b", Messages: []transcript.Message{{Role: "user", Text: "<hi>"}}})}
	var want, got bytes.Buffer
	writeJSON(&want, ls)
	writeListingsJSON(&got, ls)
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
}

// mustList is transcript.List, failing the test on an error.
func mustList(t *testing.T, tr *transcript.Transcript) *transcript.Listing {
	t.Helper()
	l, err := transcript.List(tr)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
