package transcript

import (
	"slices"
	"strings"
	"testing"
)

// TestCodexUsagePlaced checks that every token_count of a Codex rollout
// is billed, whatever answered the call: the usage sits on the call's
// first message (a tool_search_call, a custom tool call, a reply of
// reasoning only), or, when the response wrote no item harpe reads, in
// [Transcript.Unsent] with one warning counting such records. The usage
// parts are worked out from each record: input = input_tokens −
// cached_input_tokens.
func TestCodexUsagePlaced(t *testing.T) {
	const head = `{"timestamp":"2026-06-01T00:00:00.000Z","type":"turn_context","payload":{"model":"gpt-5.5"}}
{"timestamp":"2026-06-01T00:00:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}
{"timestamp":"2026-06-01T00:00:00.000Z","type":"event_msg","payload":{"type":"user_message","message":"go"}}
`
	tc := func(total, in, cached, out string) string {
		return `{"timestamp":"2026-06-01T00:00:02.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":` + total +
			`},"last_token_usage":{"input_tokens":` + in + `,"cached_input_tokens":` + cached + `,"output_tokens":` + out + `}}}}` + "\n"
	}
	item := func(payload string) string {
		return `{"timestamp":"2026-06-01T00:00:01.000Z","type":"response_item","payload":` + payload + "}\n"
	}
	tests := []struct {
		name string
		in   string
		// placed: index of the message carrying each usage, in order;
		// unsent: the usage kept off any message.
		placed   []int
		usage    []Usage
		unsent   []Usage
		warning  string
		thinking string // of the reasoning-only reply
		role     Role   // of the last message
	}{
		{"tool_search_call", head +
			item(`{"type":"tool_search_call","call_id":"ts1","status":"completed","execution":"client","arguments":{"query":"cal","limit":8}}`) +
			item(`{"type":"tool_search_output","call_id":"ts1","status":"completed","execution":"client","tools":[{"type":"function","name":"create_event"}]}`) +
			tc("9000", "9000", "0", "120"),
			[]int{1}, []Usage{{Input: 9000, Output: 120}}, nil, "", "", RoleTool},
		{"server tool_search (no call id)", head +
			item(`{"type":"tool_search_call","call_id":null,"status":"completed","execution":"server","arguments":{"paths":["x"]}}`) +
			item(`{"type":"tool_search_output","call_id":null,"status":"completed","execution":"server","tools":[]}`) +
			tc("500", "500", "100", "7"),
			[]int{1}, []Usage{{Input: 400, CacheRead: 100, Output: 7}}, nil, "", "", RoleTool},
		{"custom tool call", head +
			item(`{"type":"custom_tool_call","call_id":"c1","name":"apply_patch","input":"*** Begin Patch"}`) +
			tc("800", "800", "512", "40") +
			item(`{"type":"custom_tool_call_output","call_id":"c1","output":"ok"}`),
			[]int{1}, []Usage{{Input: 288, CacheRead: 512, Output: 40}}, nil, "", "", RoleTool},
		{"reasoning only", head +
			item(`{"type":"reasoning","summary":[{"type":"summary_text","text":"think"}],"encrypted_content":"x"}`) +
			tc("700", "700", "0", "250"),
			[]int{1}, []Usage{{Input: 700, Output: 250}}, nil, "", "think", RoleAssistant},
		{"unknown item type", head +
			item(`{"type":"image_generation_call","id":"ig1","status":"completed","result":"AAAA"}`) +
			tc("600", "600", "0", "30"),
			nil, nil, []Usage{{Input: 600, Output: 30}}, "in:5: 1 usage records (token_count) follow no reply", "", RoleUser},
		{"two counts, no item", head + tc("600", "600", "0", "30") + tc("1200", "600", "512", "30"),
			nil, nil, []Usage{{Input: 600, Output: 30}, {Input: 88, CacheRead: 512, Output: 30}},
			"in:4: 2 usage records", "", RoleUser},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := Read(strings.NewReader(tt.in), "in", FormatCodex)
			if err != nil {
				t.Fatal(err)
			}
			tr := ts[0]
			var placed []int
			var usage []Usage
			for i := range tr.Messages {
				if m := &tr.Messages[i]; m.Usage != nil {
					placed = append(placed, i)
					usage = append(usage, *m.Usage)
					if m.Model != "gpt-5.5" {
						t.Errorf("message %d: model %q, want gpt-5.5", i, m.Model)
					}
				}
			}
			if !slices.Equal(placed, tt.placed) || !slices.Equal(usage, tt.usage) {
				t.Errorf("placed %v %+v, want %v %+v", placed, usage, tt.placed, tt.usage)
			}
			var unsent []Usage
			for _, c := range tr.Unsent {
				unsent = append(unsent, c.Usage)
				if c.Model != "gpt-5.5" {
					t.Errorf("unsent model %q, want gpt-5.5", c.Model)
				}
			}
			if !slices.Equal(unsent, tt.unsent) {
				t.Errorf("unsent %+v, want %+v", unsent, tt.unsent)
			}
			var warnings []string
			for _, w := range tr.Warnings {
				warnings = append(warnings, w.Error())
			}
			switch {
			case tt.warning == "" && len(warnings) > 0:
				t.Errorf("warnings %q, want none", warnings)
			case tt.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], tt.warning)):
				t.Errorf("warnings %q, want one with %q", warnings, tt.warning)
			}
			if got := tr.Skipped["usage_without_reply"]; got != 0 {
				t.Errorf("usage_without_reply skipped %d times", got)
			}
			last := tr.Messages[len(tr.Messages)-1]
			if last.Role != tt.role {
				t.Errorf("last message %s, want %s", last.Role, tt.role)
			}
			if tt.thinking != "" && (last.Thinking != tt.thinking || last.Text != "") {
				t.Errorf("reasoning reply: text %q thinking %q, want \"\" and %q", last.Text, last.Thinking, tt.thinking)
			}
		})
	}
}
