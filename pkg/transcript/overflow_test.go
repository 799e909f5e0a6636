package transcript

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/checked"
)

// 2^63−1, the largest int: every bound below is worked from it by hand.
const maxInt = "9223372036854775807"

// TestUsageOverflow: a usage record whose parts do not fit an int is an
// *Error naming the input and line (JSONL) or JSON path (documents),
// wrapping an *checked.OverflowError; the largest prompt that fits is read.
func TestUsageOverflow(t *testing.T) {
	tests := []struct {
		name, format, in string
		want             string // the error, "" for none
	}{
		{"claude-code input plus cache read", "", `{"type":"user","message":{"role":"user","content":"hi"}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":"yo","usage":{"input_tokens":` + maxInt + `,"cache_read_input_tokens":1}}}
`, "in.jsonl:2: message.usage: input_tokens (" + maxInt + "), cache_creation_input_tokens (0) and cache_read_input_tokens (1) add up to more than " + maxInt + " tokens"},
		{"claude-code cache write plus cache read", "", `{"type":"user","message":{"role":"user","content":"hi"}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":"yo","usage":{"input_tokens":0,"cache_creation_input_tokens":4611686018427387904,"cache_read_input_tokens":4611686018427387904}}}
`, "in.jsonl:2: message.usage: input_tokens (0), cache_creation_input_tokens (4611686018427387904) and cache_read_input_tokens (4611686018427387904) add up to more than " + maxInt + " tokens"},
		// 2^63−2 + 1 = 2^63−1 fits.
		{"claude-code at the bound", "", `{"type":"user","message":{"role":"user","content":"hi"}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":"yo","usage":{"input_tokens":9223372036854775806,"cache_read_input_tokens":1}}}
`, ""},
		{"harpe cache read plus cache write", "", `{"type":"user","content":"hi"}
{"type":"assistant","content":"yo"}
{"type":"usage","input_tokens":5,"cache_read_tokens":` + maxInt + `,"cache_write_tokens":1}
`, `in.jsonl:3: "cache_read_tokens" (` + maxInt + `) and "cache_write_tokens" (1) add up to more than ` + maxInt + " tokens"},
		{"anthropic document", "anthropic", `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo","usage":{"input_tokens":1,"cache_creation_input_tokens":` + maxInt + `}}]}`,
			"in.jsonl: messages[1]: usage: input_tokens (1), cache_creation_input_tokens (" + maxInt + ") and cache_read_input_tokens (0) add up to more than " + maxInt + " tokens"},
		{"gemini candidates plus thoughts", "gemini", `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"yo"}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":` + maxInt + `,"thoughtsTokenCount":1}}]}`,
			"in.jsonl: contents[1].usageMetadata: candidatesTokenCount (" + maxInt + ") and thoughtsTokenCount (1) add up to more than " + maxInt + " tokens"},
		{"gemini document usage", "gemini", `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"yo"}]}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":1,"thoughtsTokenCount":` + maxInt + `}}`,
			"in.jsonl: usageMetadata: candidatesTokenCount (1) and thoughtsTokenCount (" + maxInt + ") add up to more than " + maxInt + " tokens"},
		{"gemini-cli output plus thoughts", "gemini-cli", `{"messages":[{"type":"user","content":"hi"},{"type":"gemini","content":"yo","tokens":{"input":5,"output":` + maxInt + `,"thoughts":1}}]}`,
			"in.jsonl: messages[1]: tokens.output (" + maxInt + ") and tokens.thoughts (1) add up to more than " + maxInt + " tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, scan := range []bool{false, true} {
				var err error
				if scan {
					err = Scan(context.Background(), strings.NewReader(tt.in), "in.jsonl", Format(tt.format), func(*Transcript, *Message) error { return nil }, nil)
				} else {
					_, err = Read(strings.NewReader(tt.in), "in.jsonl", Format(tt.format))
				}
				if tt.want == "" {
					if err != nil {
						t.Fatalf("scan %v: %v", scan, err)
					}
					continue
				}
				var e *Error
				var oe *checked.OverflowError
				if err == nil || err.Error() != tt.want || !errors.As(err, &e) || !errors.As(err, &oe) {
					t.Errorf("scan %v: error\n %v\nwant an *Error wrapping an *checked.OverflowError:\n %s", scan, err, tt.want)
				}
			}
		})
	}
}

// bigCounter counts every non-empty string as n tokens.
type bigCounter struct{ n int }

func (c bigCounter) Count(_ context.Context, s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	return c.n, nil
}
func (bigCounter) Name() string { return "big" }

// TestCountBilledOverflow: with a counter giving 2^61 tokens a string,
// each message costs 3 + 2^61 (role) + 2^61 (text) = 2^62 + 3. With the
// reply priming, one message is 2^62 + 6 and fits; two are 2^63 + 9,
// past 2^63 − 1, so the second message's line is named.
func TestCountBilledOverflow(t *testing.T) {
	in := `{"type":"user","content":"one"}
{"type":"assistant","content":"a"}
`
	c := bigCounter{1 << 61}
	_, err := CountBilled(context.Background(), strings.NewReader(in), "s.jsonl", "", c)
	const want = "s.jsonl:2: the billed tokens add up to more than " + maxInt + " tokens"
	if err == nil || err.Error() != want {
		t.Errorf("CountBilled: %v, want %s", err, want)
	}
	// One message: 3 priming + 2^62 + 3 fits.
	n, err := CountBilled(context.Background(), strings.NewReader(in[:strings.Index(in, "\n")+1]), "s.jsonl", "", c)
	if err != nil || n != 1<<62+6 {
		t.Errorf("CountBilled of one message = %d, %v; want %d", n, err, 1<<62+6)
	}
}

// longHarpe is n turns of harpe events: a user line and an assistant line.
func longHarpe(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "{\"type\":\"user\",\"content\":\"q%d\"}\n{\"type\":\"assistant\",\"content\":\"a%d\"}\n", i, i)
	}
	return b.String()
}

// lineCounter counts the bytes read through it, 64 at most a call.
type lineCounter struct {
	r     *strings.Reader
	bytes int
}

func (c *lineCounter) Read(p []byte) (int, error) {
	// Small reads, so that what is read shows how far the scan went.
	n, err := c.r.Read(p[:min(len(p), 64)])
	c.bytes += n
	return n, err
}

// TestScanCancelStops: a context cancelled while a long transcript is
// scanned stops it at once: fn is not called again, and the reading stops
// within the reader's buffer, not at the end of the input. Work is
// counted (calls, bytes), not timed.
func TestScanCancelStops(t *testing.T) {
	const turns = 100000 // 2 messages a turn, ~3.6 MB
	in := longHarpe(turns)
	for _, format := range []string{"", "harpe"} {
		ctx, cancel := context.WithCancel(context.Background())
		calls, at := 0, -1
		r := &lineCounter{r: strings.NewReader(in)}
		err := Scan(ctx, r, "s.jsonl", Format(format), func(t *Transcript, m *Message) error {
			calls++
			if calls == 10 {
				cancel()
				at = r.bytes
			}
			return nil
		}, nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("format %q: error %v, want context.Canceled", format, err)
		}
		if calls != 10 {
			t.Errorf("format %q: fn called %d times, want 10 (none after the cancel)", format, calls)
		}
		// The reader reads ahead at most its 64 KiB buffer.
		if r.bytes-at > 128<<10 || r.bytes >= len(in) {
			t.Errorf("format %q: read %d of %d bytes, %d after the cancel", format, r.bytes, len(in), r.bytes-at)
		}
		cancel()
	}
}

// TestCountBilledStops: cancelled before it starts, nothing is
// read; a JSON document's messages are not counted once cancelled.
func TestCountBilledStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := &lineCounter{r: strings.NewReader(longHarpe(1000))}
	if _, err := CountBilled(ctx, r, "s.jsonl", "", bigCounter{1}); !errors.Is(err, context.Canceled) || r.bytes != 0 {
		t.Errorf("error %v after %d bytes, want context.Canceled after 0", err, r.bytes)
	}
	// A document: read whole, then its messages are handed on one by one
	// and the context is checked before each.
	var doc strings.Builder
	doc.WriteString(`[{"role":"system","content":"s"}`)
	for i := range 1000 {
		fmt.Fprintf(&doc, `,{"role":"user","content":"q%d"}`, i)
	}
	doc.WriteString("]")
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	err := Scan(ctx, strings.NewReader(doc.String()), "d.json", "", func(*Transcript, *Message) error {
		if calls++; calls == 3 {
			cancel()
		}
		return nil
	}, nil)
	if !errors.Is(err, context.Canceled) || calls != 3 {
		t.Errorf("document: %v after %d calls, want context.Canceled after 3", err, calls)
	}
}
