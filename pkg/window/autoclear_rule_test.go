package window

import (
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// A call's facts with no rule ("") are a model without a cache, as
// [CallFacts] says: clear:auto's cache is never warm under it, as under
// prices.CacheNone. Prices 1 per token either way, a minimum cached
// prompt of 100,000 tokens, calls a minute apart; at call 3 the first
// of two results (500 tokens) is the candidate: nothing cached, the
// clear saves 1 per token freed and is made. (Under "" the cache was
// warm, the window under the minimum, and the clear refused.)
func TestAutoClearNoRuleIsNone(t *testing.T) {
	for _, rule := range []prices.CacheRule{prices.CacheNone, ""} {
		v, err := NewConversation(Edited{Base: fullStrategy{}, Edits: []Edit{autoClearEdit{Keep: 1}}, Label: "clear:auto"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Date(2026, 3, 25, 13, 0, 0, 0, time.UTC)
		var w ConversationWindow
		render := func(n int) {
			v.SetCall(CallFacts{Model: "m", At: t0.Add(time.Duration(n) * time.Minute), Rule: rule,
				Input: 1, CacheRead: 1, CacheWrite: 1, MinCache: 100000})
			if w, err = v.Render(); err != nil {
				t.Fatal(err)
			}
		}
		tool := func(id string) {
			v.AddSized(transcript.Message{Role: transcript.RoleAssistant, Turn: 1, ToolCalls: []transcript.ToolCall{{ID: id, Name: "Read", Arguments: "{}"}}}, 10)
			v.AddSized(transcript.Message{Role: transcript.RoleTool, Turn: 1, ToolCallID: id, Text: "result"}, 500)
		}
		v.Begin()
		v.AddSized(transcript.Message{Role: transcript.RoleUser, Turn: 1, Text: "go"}, 100)
		render(1)
		tool("a")
		render(2)
		tool("b")
		render(3)
		if len(w.Clears) != 1 || !w.Clears[0].Cleared {
			t.Errorf("rule %q: call 3 decisions %+v, want the first result cleared", rule, w.Clears)
		}
	}
}
