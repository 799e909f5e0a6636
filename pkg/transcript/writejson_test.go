package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// indented is what an indenting json.Encoder without HTML escaping
// writes for v: the reference WriteListingsJSON must match byte for byte.
func indented(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestWriteListingsJSON checks that the streaming writer gives exactly
// the bytes json.Encoder gives for the same value, for every sample.
func TestWriteListingsJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "transcripts", "*", "*"))
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
		ts, err := Read(f, p, "")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var ls []*Listing
		for _, tr := range ts {
			ls = append(ls, mustList(t, tr))
		}
		want := indented(t, ls)
		if len(ls) == 1 {
			want = indented(t, ls[0])
		}
		var got bytes.Buffer
		if err := WriteListingsJSON(&got, ls); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: streaming JSON differs from json.Encoder's", p)
		}
	}
	// None, and several listings, one of them empty, and a conversation
	// id that holds the marker text.
	var got bytes.Buffer
	if err := WriteListingsJSON(&got, nil); err != nil || got.String() != "[]\n" {
		t.Errorf("no listings: %q, %v", got.String(), err)
	}
	ls := []*Listing{mustList(t, &Transcript{Format: "sharegpt", ID: `"messages": null`}),
		mustList(t, &Transcript{Format: "sharegpt", ID: "b", Messages: []Message{{Role: "user", Text: "<hi>"}}})}
	want := indented(t, ls)
	got.Reset()
	if err := WriteListingsJSON(&got, ls); err != nil || !bytes.Equal(got.Bytes(), want) {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want)
	}
}

// onceFailing fails its n-th Write (counting from 0) and takes every
// other, as a pipe with a transient error would: a writer whose error is
// ignored once loses it for good.
type onceFailing struct {
	n, calls int
	buf      bytes.Buffer
}

var errOnce = errors.New("write failed")

func (o *onceFailing) Write(p []byte) (int, error) {
	defer func() { o.calls++ }()
	if o.calls == o.n {
		return 0, errOnce
	}
	return o.buf.Write(p)
}

// TestWriteListingsJSONErrors: WriteListingsJSON returns the error of
// every write it makes, whichever one fails.
func TestWriteListingsJSONErrors(t *testing.T) {
	ls := []*Listing{
		mustList(t, &Transcript{Format: "sharegpt", ID: "a", Messages: []Message{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "yo"}}}),
		mustList(t, &Transcript{Format: "sharegpt", ID: "b"}),
	}
	// Count the writes of a whole run first.
	all := &onceFailing{n: -1}
	if err := WriteListingsJSON(all, ls); err != nil {
		t.Fatal(err)
	}
	if all.calls < 10 {
		t.Fatalf("only %d writes: the test would prove little", all.calls)
	}
	for n := range all.calls {
		w := &onceFailing{n: n}
		if err := WriteListingsJSON(w, ls); !errors.Is(err, errOnce) {
			t.Errorf("write %d of %d failed, WriteListingsJSON returned %v", n, all.calls, err)
		}
	}
}

// mustList is List, failing the test on an error.
func mustList(t *testing.T, tr *Transcript) *Listing {
	t.Helper()
	l, err := List(tr)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
