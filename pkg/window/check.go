package window

import (
	"fmt"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Check reports whether window, the transcript indices sent at the call
// whose reply is message reply, is a valid window of t:
//   - indices increase and come before the reply;
//   - every message of the system part (turn 0) before the reply is sent;
//   - no message of an aborted turn is sent, except in the active turn;
//   - a tool result is sent only with the call it answers, and a tool call
//     only with the results to it that came before the reply;
//   - the first message after the system part is not a tool result;
//   - every message of the active turn is sent, save harness compaction
//     summaries and what they replaced.
//
// A replay with [ReplayOptions.Indices] can be checked call by call; a
// tool that checks harpe's JSON output can do the same.
func Check(t *transcript.Transcript, reply int, window []int) error {
	if reply < 0 || reply >= len(t.Messages) {
		return fmt.Errorf("reply %d out of range", reply)
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
	summaries := map[int]bool{}
	lastSummary := -1
	for _, i := range t.Compactions {
		summaries[i] = true
		if i < reply {
			lastSummary = max(lastSummary, i)
		}
	}
	callAt := map[string]int{}
	results := map[string][]int{}
	for i := range reply {
		m := &t.Messages[i]
		for _, tc := range m.ToolCalls {
			callAt[tc.ID] = i
		}
		if m.ToolCallID != "" {
			results[m.ToolCallID] = append(results[m.ToolCallID], i)
		}
		if m.Turn == 0 && !in[i] {
			return fmt.Errorf("system part message %d dropped", i)
		}
		if m.Turn == active && m.Turn > 0 && !in[i] && !summaries[i] && i > lastSummary {
			return fmt.Errorf("active turn message %d dropped", i)
		}
	}
	first := true
	for _, i := range window {
		m := &t.Messages[i]
		if m.Aborted && m.Turn != active {
			return fmt.Errorf("message %d of aborted turn %d sent", i, m.Turn)
		}
		if m.ToolCallID != "" {
			if c, ok := callAt[m.ToolCallID]; ok && !in[c] {
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
		if m.Turn > 0 && first {
			first = false
			if m.ToolCallID != "" || m.Role == transcript.RoleTool {
				return fmt.Errorf("window starts with tool result %d", i)
			}
		}
	}
	return nil
}
