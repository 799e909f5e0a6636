package cmd

import (
	"slices"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

func TestDefaultStrategiesFor(t *testing.T) {
	chat := &transcript.Transcript{Messages: []transcript.Message{
		{Role: transcript.RoleUser, Turn: 1}, {Role: transcript.RoleAssistant, Turn: 1}}}
	agent := &transcript.Transcript{Messages: []transcript.Message{
		{Role: transcript.RoleUser, Turn: 1},
		{Role: transcript.RoleAssistant, Turn: 1, ToolCalls: []transcript.ToolCall{{ID: "c1", Name: "Read"}}},
		{Role: transcript.RoleTool, Turn: 1, ToolCallID: "c1"}}}
	// A tool call in the system part (turn 0, before any prompt) is no loop.
	preamble := &transcript.Transcript{Messages: []transcript.Message{
		{Role: transcript.RoleAssistant, ToolCalls: []transcript.ToolCall{{ID: "c0"}}}, {Role: transcript.RoleUser, Turn: 1}}}
	for _, tc := range []struct {
		name      string
		ts        []*transcript.Transcript
		want      []string
		wantAgent bool
	}{
		{"chat", []*transcript.Transcript{chat}, []string{"full", "windowed", "summarizing", "turn"}, false},
		{"agent loop", []*transcript.Transcript{agent}, []string{"full", "clear", "mask", "cheapest"}, true},
		{"a chat and an agent loop", []*transcript.Transcript{chat, agent}, []string{"full", "clear", "mask", "cheapest"}, true},
		{"tool call before the first prompt", []*transcript.Transcript{preamble}, []string{"full", "windowed", "summarizing", "turn"}, false},
		{"none", nil, []string{"full", "windowed", "summarizing", "turn"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, agent := defaultStrategiesFor(slices.ContainsFunc(tc.ts, isAgentLoop))
			if !slices.Equal(got, tc.want) || agent != tc.wantAgent {
				t.Errorf("defaultStrategiesFor = %v, %v; want %v, %v", got, agent, tc.want, tc.wantAgent)
			}
		})
	}
}
