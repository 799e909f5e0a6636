package live_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// BenchmarkRender1000: the cost of one call of an agent loop whose
// context holds 1,000 messages (a prompt, then tool calls and their
// 2,000-character results): each iteration adds the next tool call and
// result, renders, and aborts that turn again, so the context stays at
// 1,000 messages.
//
//	go test -run '^$' -bench Render1000 -benchtime 2000x ./pkg/live/
func BenchmarkRender1000(b *testing.B) {
	out := strings.Repeat("line of output\n", 133)
	for _, spec := range []string{"full", "windowed:chars=4000000+clear", "clear:auto", "mask"} {
		b.Run(spec, func(b *testing.B) {
			ctx := context.Background()
			c, err := live.NewSpec(spec, live.Config{System: "You are a coding agent."})
			if err != nil {
				b.Fatal(err)
			}
			c.Begin(live.Message{Role: transcript.RoleUser, Text: "Fix the bug."})
			for i := 0; i < 499; i++ {
				id := fmt.Sprint("t", i)
				c.Add(live.Message{Role: transcript.RoleAssistant, ToolCalls: []transcript.ToolCall{{ID: id, Name: "Read", Arguments: `{"path":"a.go"}`}}})
				c.Add(live.Message{Role: transcript.RoleTool, ToolCallID: id, Text: out})
			}
			c.Commit()
			if _, err := c.Render(ctx); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.Begin(live.Message{Role: transcript.RoleUser, Text: "and the next"})
				s, err := c.Render(ctx)
				if err != nil || len(s.Window) < 2 {
					b.Fatal(err)
				}
				c.Observe(live.Usage{Input: s.Tokens})
				c.Abort()
			}
		})
	}
}
