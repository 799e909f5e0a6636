package transcript

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/memtest"
)

// growingHAR writes a HAR of two conversations of OpenAI Chat calls, their
// calls in turn, calls calls each: call i of a conversation sends 2i+1
// messages of about 4 KB (its questions and the answers before them) and
// gets the answer i with prompt_tokens 100·(i+1) (+ 1 in the second).
func growingHAR(t *testing.T, calls int) string {
	path := filepath.Join(t.TempDir(), "calls.har")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	text := func(conv, k int) string {
		return fmt.Sprintf("conv %d message %d: %s", conv, k, strings.Repeat("x", 4000))
	}
	fmt.Fprint(w, `{"log":{"version":"1.2","entries":[`)
	for i := 0; i < calls; i++ {
		for conv := 0; conv < 2; conv++ {
			var msgs []map[string]string
			for k := 0; k <= 2*i; k++ {
				role := map[bool]string{true: "user", false: "assistant"}[k%2 == 0]
				msgs = append(msgs, map[string]string{"role": role, "content": text(conv, k)})
			}
			req, _ := json.Marshal(map[string]any{"model": "gpt-4o", "messages": msgs})
			resp, _ := json.Marshal(map[string]any{
				"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": text(conv, 2*i+1)}}},
				"usage":   map[string]int{"prompt_tokens": 100*(i+1) + conv},
			})
			entry, _ := json.Marshal(map[string]any{
				"request":  map[string]any{"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "postData": map[string]string{"mimeType": "application/json", "text": string(req)}},
				"response": map[string]any{"status": 200, "content": map[string]string{"mimeType": "application/json", "text": string(resp)}},
			})
			if i+conv > 0 {
				w.WriteByte(',')
			}
			w.Write(entry)
		}
	}
	fmt.Fprint(w, "]}}\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHARCallsNotHeld: a HAR of 2 × 50 calls (about 19 MB, each call
// resending its conversation) is read keeping of each conversation only
// its last call whole, of the others their prompt sizes. Before, every
// call's request and response bodies stayed until the end, to group the
// calls (18 MB live while reading; their parsed windows came on top after
// it). The last calls are 2 × 200 KB, held with their parsed and
// compacted copies; the bound, 8 MB, is that, the entry being read, the
// stream's buffers and the messages kept here.
func TestHARCallsNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 19 MB file")
	}
	const calls = 50
	path := growingHAR(t, calls)
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	// Of each message, what the test checks: its text's head, its prompt.
	type seen struct {
		head   string
		prompt int
	}
	got := map[string][]seen{}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	l := &memtest.LiveFile{F: file}
	err = Scan(context.Background(), l, "calls.har", "", func(t *Transcript, msg *Message) error {
		s := seen{head: strings.Clone(msg.Text[:min(len(msg.Text), 24)])}
		if msg.InputTokens != nil {
			s.prompt = *msg.InputTokens
		}
		got[t.ID] = append(got[t.ID], s)
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	live := l.Max - min(l.Max, m.HeapAlloc)
	st, _ := os.Stat(path)
	if live > 8<<20 {
		t.Errorf("%d MB live while reading a %d MB HAR", live>>20, st.Size()>>20)
	}
	if len(got) != 2 {
		t.Fatalf("%d transcripts, want 2", len(got))
	}
	for conv := range 2 {
		id := fmt.Sprint(conv + 1)
		if len(got[id]) != 2*calls {
			t.Fatalf("transcript %q: %d messages, want %d", id, len(got[id]), 2*calls)
		}
		for k, msg := range got[id] {
			// Message 2i+1 is call i's answer, its prompt 100·(i+1) + conv.
			want := 0
			if k%2 == 1 {
				want = 100*((k-1)/2+1) + conv
			}
			if msg.prompt != want || !strings.HasPrefix(msg.head, fmt.Sprintf("conv %d message %d:", conv, k)) {
				t.Fatalf("transcript %s message %d: prompt %d, text %q; want %d", id, k, msg.prompt, msg.head, want)
			}
		}
	}
}
