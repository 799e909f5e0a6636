package window

import (
	"math"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// An Anthropic cache entry written while the unseen front was longer
// holds a prefix the call no longer sends: clear:auto counts on no more
// than what this call sends before the oldest candidate.
//
// Prices per token: read 0.1, write 1.25. Front 10,000; the prompt (100)
// at call 1 (window 10,100, an entry ending before position 1); a tool
// call (10) and its result (500) at call 2 (window 10,610). The front
// then shrinks to 8,000 (the harness sent a shorter system prompt), a
// second tool call (10) and result (500): at call 3 the candidate is the
// first result, at position 2, freeing s. Before it the call sends
// 8,000 + 100 + 10 = 8,110 tokens, under call 1's entry of 10,100, so
// R = 8,110 and Δ = (1.25 − 0.1)·(10,610 − 8,110) − 1.25·s; n̂ = 2 (no
// more calls than made before), and 2·0.1·s < Δ: no clear. Counting on
// call 1's entry whole (R = 10,100) made Δ = 1.15·510 − 1.25·s < 0 and
// cleared.
func TestAutoClearEntryNotPastWhatIsSent(t *testing.T) {
	v, render, tool := autoClearConversation(t, false)
	v.SetOverhead(10000)
	v.Begin()
	v.AddSized(transcript.Message{Role: transcript.RoleUser, Turn: 1, Text: "go"}, 100)
	if w := render(1); w.Tokens != 100 {
		t.Fatalf("call 1 tokens = %d, want 100", w.Tokens)
	}
	tool("a")
	render(2)
	v.SetOverhead(8000)
	tool("b")
	w := render(3)
	if len(w.Clears) != 1 {
		t.Fatalf("call 3 decisions = %+v, want 1", w.Clears)
	}
	d := w.Clears[0]
	s := float64(d.FreedTokens)
	if s <= 0 || s > 500 {
		t.Fatalf("freed %d, want in (0, 500]", d.FreedTokens)
	}
	want := 1.15*(10610-8110) - 1.25*s
	if d.Cleared || math.Abs(d.ExtraNowUSD-want) > 1e-6 {
		t.Errorf("call 3: cleared %v, Δ %g; want not cleared, Δ %g", d.Cleared, d.ExtraNowUSD, want)
	}
}

// An unseen overhead that grows while the cache stays warm (sized from
// the records, as the counter falls behind them) is not in the cache:
// its entry holds the front as the cold call wrote it. clear:auto's
// worst case against what was really spent counts on no more.
//
// Prices per token: input 1, read 0.1, write 1.25. Front 10,000 at
// calls 1 and 2 (windows 10,100 and 10,610: prompt 100, a tool call 10
// and its result 500), then 12,000 at call 3 with a second call and
// result (10,000 + 10 + 500 more): the candidate is the first result,
// freeing s ≤ 500 tokens. Nothing spent beyond full (a margin of 0).
// Worst case, the cache holds the front as written, 10,000: the clear
// rewrites 10,610 − 10,000 = 610 tokens it would have read, 1.15 × 610 =
// 701.5 against 1.25·s ≤ 625 saved: over the margin, no clear. Counting
// on the grown front (12,000, more than call 2 sent) made the rewrite
// look free, and it cleared.
func TestAutoClearFrontAsWritten(t *testing.T) {
	v, render, tool := autoClearConversation(t, true)
	v.SetOverhead(10000)
	v.Begin()
	v.AddSized(transcript.Message{Role: transcript.RoleUser, Turn: 1, Text: "go"}, 100)
	render(1)
	tool("a")
	if w := render(2); w.Tokens != 610 {
		t.Fatalf("call 2 tokens = %d, want 610 (the overhead apart)", w.Tokens)
	}
	v.SetOverhead(12000)
	tool("b")
	w := render(3)
	if len(w.Clears) != 1 {
		t.Fatalf("call 3 decisions = %+v, want 1", w.Clears)
	}
	if d := w.Clears[0]; d.Cleared {
		t.Errorf("call 3 cleared %d tokens; want no clear (the rewrite of 610 tokens the cache holds is over the margin)", d.FreedTokens)
	}
}

// autoClearConversation is a live conversation under clear:auto (keep 1)
// for a model priced input 1, read 0.1, write 1.25 per token under
// Anthropic's rule, calls a minute apart from 25 March 2026, 13:00 UTC;
// known: its spend is real ([CallFacts.Known], nothing spent). render
// makes call n; tool adds a tool call (10 tokens) and its result (500).
func autoClearConversation(t *testing.T, known bool) (*Conversation, func(n int) ConversationWindow, func(id string)) {
	t.Helper()
	v, err := NewConversation(withEdits{Base: fullStrategy{}, Edits: []edit{autoClearEdit{Keep: 1}}, Label: "clear:auto"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 25, 13, 0, 0, 0, time.UTC)
	render := func(n int) ConversationWindow {
		t.Helper()
		v.SetCall(CallFacts{Model: "m", At: t0.Add(time.Duration(n) * time.Minute), Rule: prices.CacheAnthropic,
			Input: 1, CacheRead: 0.1, CacheWrite: 1.25, Known: known})
		w, err := v.Render()
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	tool := func(id string) {
		v.AddSized(transcript.Message{Role: transcript.RoleAssistant, Turn: 1, ToolCalls: []transcript.ToolCall{{ID: id, Name: "Read", Arguments: "{}"}}}, 10)
		v.AddSized(transcript.Message{Role: transcript.RoleTool, Turn: 1, ToolCallID: id, Text: "result"}, 500)
	}
	return v, render, tool
}
