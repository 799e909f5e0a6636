package report_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
	"github.com/harpe-dev/harpe/report"
)

// Two sessions, calls recorded at 5 and 7 input tokens in a.jsonl and at
// 3 in b.jsonl, replayed under full for their totals: a line per session
// (12 and 3 tokens sent), then the grand total, 15 tokens in 3 calls.
func ExampleWriteReplaySessions() {
	call := func(turn, tokens int) []transcript.Message {
		return []transcript.Message{{Role: "user", Text: "q", Turn: turn},
			{Role: "assistant", Text: "a", Turn: turn, InputTokens: &tokens}}
	}
	session := func(file string, calls ...[]transcript.Message) sessions.Session {
		t := &transcript.Transcript{Format: "harpe", Turns: len(calls)}
		for _, c := range calls {
			t.Messages = append(t.Messages, c...)
		}
		for i := range t.Messages {
			t.Messages[i].Index = i
		}
		return sessions.Session{File: file, Transcript: t}
	}
	all := []sessions.Session{session("a.jsonl", call(1, 5), call(2, 7)), session("b.jsonl", call(1, 3))}
	var out bytes.Buffer
	_, err := report.WriteReplaySessions(context.Background(), &out, func(yield func(sessions.Session, error) bool) {
		for _, s := range all {
			if !yield(s, nil) {
				return
			}
		}
	}, sessions.Options{Strategies: window.Strategies()[:1],
		Replay: window.ReplayOptions{Options: window.DefaultOptions()}, Totals: true}, report.ReplaySessionsOptions{Format: "jsonl"})
	if err != nil {
		fmt.Println(err)
		return
	}
	lines := bufio.NewScanner(&out)
	for lines.Scan() {
		var row struct {
			File       string `json:"file"`
			Strategy   string `json:"strategy"`
			Sessions   int    `json:"sessions"`
			Calls      int    `json:"calls"`
			TokensSent int    `json:"tokens_sent"`
		}
		if err := json.Unmarshal(lines.Bytes(), &row); err != nil {
			fmt.Println(err)
			return
		}
		if row.File != "" {
			fmt.Println(row.File, row.Strategy, row.Calls, row.TokensSent)
		} else {
			fmt.Println(row.Strategy, row.Sessions, "sessions", row.Calls, "calls", row.TokensSent, "tokens")
		}
	}
	// Output:
	// a.jsonl full 2 12
	// b.jsonl full 1 3
	// full 2 sessions 3 calls 15 tokens
}
