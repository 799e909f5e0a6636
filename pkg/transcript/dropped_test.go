package transcript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// shareGPTFile writes n two-message ShareGPT conversations to a file and
// returns it opened (a file, so that the document is streamed).
func shareGPTFile(t *testing.T, n int) *os.File {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"c%d","conversations":[{"from":"human","value":"hi %d"},{"from":"gpt","value":"hello"}]}`, i, i)
	}
	b.WriteString("]\n")
	path := filepath.Join(t.TempDir(), "sharegpt.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestScanDropsConversations: Scan keeps no conversation of a ShareGPT
// file once done has had it. At the last conversation every earlier one
// must be collectable; before, the reader appended each to the slice
// Scan returned, so all 1,000 stayed live to the end (200,000 short
// conversations: 53 MiB of Transcript values on a 27 MB file).
func TestScanDropsConversations(t *testing.T) {
	const n = 1000
	f := shareGPTFile(t, n)
	var seen []weak.Pointer[Transcript]
	live := -1
	messages := 0
	err := Scan(context.Background(), f, "sharegpt.json", "", func(*Transcript, *Message) error {
		messages++
		return nil
	}, func(tr *Transcript) error {
		seen = append(seen, weak.Make(tr))
		if len(seen) == n {
			runtime.GC()
			live = 0
			for _, p := range seen[:n-1] {
				if p.Value() != nil {
					live++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != n || messages != 2*n {
		t.Fatalf("done got %d conversations and fn %d messages, want %d and %d", len(seen), messages, n, 2*n)
	}
	if live > 0 {
		t.Errorf("%d of the %d earlier conversations still live at the last one, want 0", live, n-1)
	}
}

// TestCountHistoryKeepsWarnedOnly: CountHistory counts every conversation
// but keeps only those with warnings (none here).
func TestCountHistoryKeepsWarnedOnly(t *testing.T) {
	f := shareGPTFile(t, 3)
	h, err := CountHistory(context.Background(), f, "sharegpt.json", "", tokenize.Estimate)
	if err != nil {
		t.Fatal(err)
	}
	if h.Conversations != 3 || len(h.Transcripts) != 0 {
		t.Errorf("%d conversations, %d kept; want 3, 0", h.Conversations, len(h.Transcripts))
	}
}
