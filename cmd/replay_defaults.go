package cmd

import "github.com/harpe-dev/harpe/pkg/transcript"

// defaultStrategiesFor returns the strategy specs harpe replay compares
// when none is named, and agent. For agent loops (agent: some turn holds a tool call,
// isAgentLoop, so most of the input is re-sent tool results) they are
// full and the edits that cut those results: full, clear, mask, cheapest.
// Otherwise (chats) they are full and the strategies that drop whole
// turns: full, windowed, summarizing, turn.
func defaultStrategiesFor(agent bool) (specs []string, _ bool) {
	if agent {
		// The one place the agent-loop defaults are listed.
		return []string{"full", "clear", "mask", "cheapest"}, true
	}
	return []string{"full", "windowed", "summarizing", "turn"}, false
}

// isAgentLoop reports whether some turn of t (past the system part)
// holds a tool call.
func isAgentLoop(t *transcript.Transcript) bool {
	for i := range t.Messages {
		if m := &t.Messages[i]; m.Turn > 0 && len(m.ToolCalls) > 0 {
			return true
		}
	}
	return false
}
