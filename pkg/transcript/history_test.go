package transcript

import (
	"bufio"
	"context"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// TestCountHistoryRecorded: the recorded prompt is the last recorded
// call's input (uncached + cache write + cache read), not a sum or a
// maximum over the calls; a transcript that records none says so.
func TestCountHistoryRecorded(t *testing.T) {
	const user = `{"type":"user","uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hello there"}}` + "\n"
	tests := []struct {
		name         string
		in           string
		wantRecorded int
		wantHas      bool
	}{
		{"no usage", user, 0, false},
		{"two calls", user +
			`{"type":"assistant","uuid":"a1","timestamp":"2026-01-01T00:00:01.000Z","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":663,"cache_read_input_tokens":27000,"output_tokens":12}}}` + "\n" +
			`{"type":"user","uuid":"u2","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"and?"}}` + "\n" +
			`{"type":"assistant","uuid":"a2","timestamp":"2026-01-01T00:00:03.000Z","message":{"id":"msg_2","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":5,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":2}}}` + "\n",
			5 + 100 + 1000, true},
	}
	c, err := tokenize.New("estimate")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := CountHistory(context.Background(), strings.NewReader(tt.in), "cc.jsonl", "claude-code", c)
			if err != nil {
				t.Fatal(err)
			}
			if h.Recorded != tt.wantRecorded || h.HasRecorded != tt.wantHas {
				t.Errorf("recorded %d (%v), want %d (%v)", h.Recorded, h.HasRecorded, tt.wantRecorded, tt.wantHas)
			}
			billed, err := CountBilled(context.Background(), strings.NewReader(tt.in), "cc.jsonl", "claude-code", c)
			if err != nil {
				t.Fatal(err)
			}
			if h.Tokens != billed || h.Conversations != 1 || len(h.Transcripts) != 0 {
				t.Errorf("tokens %d over %d conversations (%d kept), want CountBilled's %d over 1 (none kept: no warnings)", h.Tokens, h.Conversations, len(h.Transcripts), billed)
			}
		})
	}
}

// TestLooksLikeItems: the sniff that tells items JSONL from a transcript
// by the first non-blank line.
func TestLooksLikeItems(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{`{"id":"a","content":"x"}`, true},
		{"\n\n  \n" + `{"content":"x"}` + "\n", true},
		{"\xef\xbb\xbf" + `{"content":"x"}`, true},
		{`{"type":"user","content":"x"}`, false},            // a transcript record
		{`{"role":"user","content":[{"text":"x"}]}`, false}, // content not a string
		{`[{"content":"x"}]`, false},
		{`not json`, false},
		{"", false},
	}
	for _, tt := range tests {
		head, err := ReadHead(bufio.NewReader(strings.NewReader(tt.in)))
		if err != nil {
			t.Fatal(err)
		}
		if got := LooksLikeItems(head); got != tt.want {
			t.Errorf("LooksLikeItems(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
