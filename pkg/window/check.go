package window

import (
	"fmt"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Check reports whether window, the transcript indices sent at the call
// whose reply is message reply, is a valid window of t:
//   - indices increase and come before the reply;
//   - every message of the system part (system messages and injected
//     context before the first prompt) before the reply is sent, save
//     harness compaction summaries ([transcript.Transcript.Compactions]);
//   - no message of an aborted turn is sent, except in the active turn;
//   - a tool result is sent only with the call it answers (never one with
//     no call before it, whose call was in another turn, aborted, or whose
//     call came before a harness compaction summary in effect at the
//     result), and a tool call only with the results to it that came
//     before the reply;
//   - the first message after the system part is not a tool result;
//   - replies and tool traffic before the first prompt count as a turn;
//   - the active turn's first message is sent (the newest prompt), save
//     when it is a harness compaction summary or came before the latest
//     of them.
//
// Check requires nothing more of the active turn (budget chooses within
// it), nor of the turns before it: a window may leave out any of them, and
// in particular anything before the latest harness summary, which every
// strategy leaves out.
//
// summarized lists the messages folded into the summary sent with the
// window (summarizing: every compaction's Folded so far): a tool result
// whose call was folded may be left out with it.
//
// A replay with [ReplayOptions.Indices] can be checked call by call; a
// tool that checks harpe's JSON output can do the same.
func Check(t *transcript.Transcript, reply int, window []int, summarized []int) error {
	if reply < 0 || reply >= len(t.Messages) {
		return fmt.Errorf("reply %d out of range", reply)
	}
	folded := make(map[int]bool, len(summarized))
	for _, i := range summarized {
		folded[i] = true
	}
	in := make(map[int]bool, len(window))
	prev := -1
	for _, i := range window {
		if i <= prev {
			return fmt.Errorf("indices not increasing at %d", i)
		}
		if i >= reply {
			return fmt.Errorf("message %d is not before the reply %d", i, reply)
		}
		prev = i
		in[i] = true
	}
	active := t.Messages[reply].Turn
	sysEnd := SystemPartEnd(t.Messages)
	// A turn with an aborted message is aborted whole; once it has ended
	// its messages are gone from the context.
	maxTurn := 0
	for i := range t.Messages {
		maxTurn = max(maxTurn, t.Messages[i].Turn)
	}
	abortedTurn := make([]bool, maxTurn+1)
	isSummary := make([]bool, len(t.Messages))
	for i := range t.Messages {
		if m := &t.Messages[i]; m.Aborted && m.Turn >= 0 {
			abortedTurn[m.Turn] = true
		}
	}
	lastSummary := -1
	for _, i := range t.Compactions {
		if i >= 0 && i < len(isSummary) {
			isSummary[i] = true
			if i < reply {
				lastSummary = max(lastSummary, i)
			}
		}
	}
	gone := func(i int) bool {
		turn := t.Messages[i].Turn
		return turn >= 0 && abortedTurn[turn] && turn != active
	}
	// Tool results no window may send, worked out here on their own (not
	// with the replay's bookkeeping they check).
	orphan := unsendable(t, reply, isSummary, abortedTurn, folded)
	callAt := map[string]int{}
	results := map[string][]int{}
	seenActive := false
	for i := range reply {
		m := &t.Messages[i]
		for _, tc := range m.ToolCalls {
			callAt[tc.ID] = i
		}
		if m.ToolCallID != "" {
			if !gone(i) && !orphan[i] {
				results[m.ToolCallID] = append(results[m.ToolCallID], i)
			}
		}
		if isSystemPart(t.Messages, i, sysEnd) && !in[i] && !isSummary[i] {
			return fmt.Errorf("system part message %d dropped", i)
		}
		if m.Turn == active && !isSystemPart(t.Messages, i, sysEnd) && !isSummary[i] && !orphan[i] && i > lastSummary && !seenActive {
			// The newest prompt: the active turn's first message still
			// in effect.
			seenActive = true
			if !in[i] {
				return fmt.Errorf("newest prompt %d dropped", i)
			}
		}
	}
	first := true
	for _, i := range window {
		m := &t.Messages[i]
		if gone(i) {
			return fmt.Errorf("message %d of aborted turn %d sent", i, m.Turn)
		}
		if m.ToolCallID != "" {
			if orphan[i] {
				return fmt.Errorf("tool result %d has no call before it", i)
			}
			if c := callAt[m.ToolCallID]; !in[c] {
				return fmt.Errorf("tool result %d sent without its call %d", i, c)
			}
		}
		for _, tc := range m.ToolCalls {
			for _, r := range results[tc.ID] {
				if r > i && !in[r] {
					return fmt.Errorf("tool call %d sent without its result %d", i, r)
				}
			}
		}
		if !isSystemPart(t.Messages, i, sysEnd) && first {
			first = false
			if m.ToolCallID != "" || m.Role == transcript.RoleTool {
				return fmt.Errorf("window starts with tool result %d", i)
			}
		}
	}
	return nil
}

// unsendable marks the tool results before reply that no window may send.
// A result r may be sent only when the latest message before it calling
// its id, c, exists; c is not folded into a rolling summary; c's turn was
// not aborted unless it is r's own turn; and no harness summary in effect
// at r lies between c and r (a summary is in effect at r when it comes
// before r and its turn is r's or was not aborted).
func unsendable(t *transcript.Transcript, reply int, summary, aborted []bool, folded map[int]bool) []bool {
	out := make([]bool, len(t.Messages))
	wasAborted := func(turn int) bool { return turn >= 0 && turn < len(aborted) && aborted[turn] }
	latest := map[string]int{} // call id → the latest message calling it so far
	var summaries []int
	for r := 0; r < reply; r++ {
		m := &t.Messages[r]
		if summary[r] {
			summaries = append(summaries, r)
		}
		if m.ToolCallID != "" {
			c, ok := latest[m.ToolCallID]
			switch {
			case !ok, folded[c]:
				out[r] = true
			case wasAborted(t.Messages[c].Turn) && t.Messages[c].Turn != m.Turn:
				out[r] = true
			default:
				for _, s := range summaries {
					if s > c && (t.Messages[s].Turn == m.Turn || !wasAborted(t.Messages[s].Turn)) {
						out[r] = true
						break
					}
				}
			}
		}
		for _, tc := range m.ToolCalls {
			latest[tc.ID] = r
		}
	}
	return out
}

// checkCost reports whether the priced calls of one strategy's replay,
// every call of the transcript in order, keep balanced books:
//   - each call's cache read, cache write and uncached input add up to
//     the tokens it sends ([Call.Tokens]);
//   - no call reads more than an earlier call of its model (priced as the
//     same model) left in the cache: under the Anthropic rule what that
//     call read and wrote, under OpenAI's the whole prompt it sent; and
//     nothing is read without a cache rule. A read the record of the
//     call shows longer than the cache model (an entry the provider kept
//     past the modelled TTL, a prefix read past the last breakpoint) is
//     held only to the first check.
//
// Calls without a cost (an unpriced replay) are passed over. The error
// names the call.
func checkCost(calls []Call) error {
	left := map[string]int{} // model → the most an earlier call left cached
	for i := range calls {
		c := &calls[i]
		cc := c.CallCost
		if cc == nil {
			continue
		}
		p := cc.Cache
		if p.Read < 0 || p.Write < 0 || p.Uncached < 0 {
			return fmt.Errorf("call %d: negative part in read %d, write %d, uncached %d", c.Call, p.Read, p.Write, p.Uncached)
		}
		if sum := p.Read + p.Write + p.Uncached; sum != c.Tokens {
			return fmt.Errorf("call %d: read %d + write %d + uncached %d = %d, but the call sends %d tokens", c.Call, p.Read, p.Write, p.Uncached, sum, c.Tokens)
		}
		ru := cost.RuleOf(cc.CacheRule)
		if !ru.Caches() && (p.Read > 0 || p.Write > 0) {
			return fmt.Errorf("call %d: read %d, write %d under cache rule %q", c.Call, p.Read, p.Write, cc.CacheRule)
		}
		leaves := ru.Leaves(p)
		if prev := left[cc.Model]; p.Read > prev && !cc.floored {
			return fmt.Errorf("call %d: reads %d tokens, but the earlier calls of %s left at most %d in the cache", c.Call, p.Read, cc.Model, prev)
		}
		left[cc.Model] = max(left[cc.Model], leaves)
	}
	return nil
}
