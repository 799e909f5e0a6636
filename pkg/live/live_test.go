package live_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/summary"
)

func user(s string) live.Message { return live.Message{Role: transcript.RoleUser, Text: s} }
func reply(s string) live.Message {
	return live.Message{Role: transcript.RoleAssistant, Text: s}
}
func toolCall(id, name, args string) live.Message {
	return live.Message{Role: transcript.RoleAssistant, ToolCalls: []transcript.ToolCall{{ID: id, Name: name, Arguments: args}}}
}
func toolResult(id, out string) live.Message {
	return live.Message{Role: transcript.RoleTool, ToolCallID: id, Text: out}
}

// TestLifecycle walks a session by hand under windowed:chars=10.
func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	c, err := live.NewSpec("windowed:chars=10", live.Config{System: "sys"})
	if err != nil {
		t.Fatal(err)
	}
	// Indices: 0 the system prompt, then each message in the order given.
	if i := c.Begin(user("aaaa")); i != 1 {
		t.Fatalf("prompt index %d, want 1", i)
	}
	c.Add(toolCall("t1", "Read", "{}")) // 2
	c.Add(toolResult("t1", "xxxxxxxx")) // 3
	s, err := c.Render(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The active turn is always whole: everything so far.
	if want := (window.Indices{0, 1, 2, 3}); !slices.Equal(s.Window, want) || s.System != "sys" || len(s.Messages) != 3 {
		t.Fatalf("call 1: window %v system %q %d messages, want %v, \"sys\", 3", s.Window, s.System, len(s.Messages), want)
	}
	c.Observe(live.Usage{Input: 10, Output: 3})
	c.Add(reply("done")) // 4
	c.Commit()
	// Turn 1 is 4 + (4 + 2) + 8 + 4 = 22 characters; turn 2's prompt 2:
	// 2 + 22 > 10, so turn 1 is left out.
	c.Begin(user("bb")) // 5
	s, err = c.Render(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (window.Indices{0, 5}); !slices.Equal(s.Window, want) || s.Messages[0].Text != "bb" {
		t.Fatalf("call 2: window %v, want %v", s.Window, want)
	}
	c.Abort()
	c.Begin(user("cc")) // 6: the aborted turn is gone
	// A result whose call is not held (it was in no turn) is never sent.
	if i, held := c.Add(toolResult("t9", "stray")); i != 7 || held {
		t.Fatalf("stray result: index %d held %v, want 7 false", i, held)
	}
	s, err = c.Render(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (window.Indices{0, 6}); !slices.Equal(s.Window, want) {
		t.Fatalf("call 3: window %v, want %v", s.Window, want)
	}
	// The same messages as a transcript, the reply at 8: the window
	// passes Check.
	tr := &transcript.Transcript{Messages: []transcript.Message{
		{Role: transcript.RoleSystem, Text: "sys"},
		{Role: transcript.RoleUser, Text: "aaaa", Turn: 1},
		{Role: transcript.RoleAssistant, Turn: 1, ToolCalls: []transcript.ToolCall{{ID: "t1", Name: "Read", Arguments: "{}"}}},
		{Role: transcript.RoleTool, ToolCallID: "t1", Text: "xxxxxxxx", Turn: 1},
		{Role: transcript.RoleAssistant, Text: "done", Turn: 1},
		{Role: transcript.RoleUser, Text: "bb", Turn: 2, Aborted: true},
		{Role: transcript.RoleUser, Text: "cc", Turn: 3},
		{Role: transcript.RoleTool, ToolCallID: "t9", Text: "stray", Turn: 3},
		{Role: transcript.RoleAssistant, Text: "ok", Turn: 3},
	}}
	for i := range tr.Messages {
		tr.Messages[i].Index = i
	}
	if err := window.Check(tr, 8, s.Window, nil); err != nil {
		t.Fatal(err)
	}
}

type ctxKey struct{}

// TestDistillError: summarizing calls the distiller with the render's
// context; its error comes back from Render and leaves the history and
// the summary as they were.
func TestDistillError(t *testing.T) {
	fail := errors.New("model down")
	var seen []any
	broken := true
	cfg := live.Config{Distill: func(ctx context.Context, req summary.Request) (string, error) {
		seen = append(seen, ctx.Value(ctxKey{}))
		if broken {
			return "", fail
		}
		return "summary of " + fmt.Sprint(len(req.Messages)), nil
	}}
	// high=0: compact after every call; low=0: keep only the active turn.
	c, err := live.NewSpec("summarizing:high=0:low=0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.WithValue(context.Background(), ctxKey{}, "mine")
	c.Begin(user("first"))
	c.Add(reply("one"))
	c.Commit()
	c.Begin(user("second"))
	if _, err := c.Render(ctx); err != nil { // nothing observed yet
		t.Fatal(err)
	}
	c.Observe(live.Usage{Input: 5})
	_, err = c.Render(ctx)
	if !errors.Is(err, fail) {
		t.Fatalf("render: %v, want the distiller's error", err)
	}
	if c.Summary() != "" {
		t.Fatalf("summary %q after a failed distill", c.Summary())
	}
	// The history is whole: the next call sends both turns.
	s, err := c.Render(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (window.Indices{0, 1, 2}); !slices.Equal(s.Window, want) {
		t.Fatalf("after the failure: window %v, want %v", s.Window, want)
	}
	broken = false
	c.Observe(live.Usage{Input: 5})
	s, err = c.Render(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Turn 1 (first, one) is folded: the summary and turn 2.
	if want := (window.Indices{2}); !slices.Equal(s.Window, want) || s.Summary != "summary of 2" || !strings.HasSuffix(s.System, "summary of 2") {
		t.Fatalf("after the fold: window %v summary %q system %q", s.Window, s.Summary, s.System)
	}
	if len(seen) != 2 || seen[0] != "mine" || seen[1] != "mine" {
		t.Fatalf("distill saw contexts %v", seen)
	}
}

// TestRenderedMessages: the messages a live context renders (copied
// from where they changed) are what window.ShowCall renders at the
// same call, placeholders in place, on the agent samples.
func TestRenderedMessages(t *testing.T) {
	ctx := context.Background()
	all := samples(t)
	o := equivOptions()
	for name, tr := range all {
		if !strings.Contains(name, "agent") && !strings.Contains(name, "replay") {
			continue
		}
		for _, spec := range []string{"full", "clear:trigger=2000:inputs", "mask:keep=2", "summarizing:high=2000", "windowed:chars=4000+limit:bytes=300"} {
			s, _ := window.Parse(spec, o)
			sizes, _, err := window.MessageSizes(ctx, tr, window.ReplayOptions{Options: o})
			if err != nil {
				t.Fatal(err)
			}
			ncalls := len(replies(tr))
			at := map[int]bool{1: true, ncalls / 2: true, ncalls: true}
			c, _ := live.NewSpec(spec, live.Config{Options: o})
			err = live.Drive(ctx, tr, c, live.DriveOptions{Sizes: sizes}, func(got *live.Snapshot) error {
				if !at[got.Call] {
					return nil
				}
				v, err := window.ShowCall(ctx, tr, s, window.ReplayOptions{Options: o}, got.Call)
				if err != nil {
					return err
				}
				want := v.Rendered
				if got.System != want.System || got.Summary != want.Summary {
					t.Errorf("%s %s call %d: system differs", name, spec, got.Call)
				}
				if len(got.Messages) != len(want.Messages) {
					t.Errorf("%s %s call %d: %d messages, want %d", name, spec, got.Call, len(got.Messages), len(want.Messages))
					return nil
				}
				for i := range want.Messages {
					g, w := got.Messages[i], want.Messages[i]
					if g.Index != w.Index || g.Text != w.Text || !slices.Equal(g.ToolCalls, w.ToolCalls) {
						t.Errorf("%s %s call %d: message %d differs", name, spec, got.Call, i)
						break
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestBlocks: context blocks follow the system prompt in the system part
// (index 1: the system part's second message), each cut to its cap. The
// policy's 92 characters under a cap of 60: the marker "…[cut: showing
// K of 92 characters]" is 35 with a two-digit K, so K = 25.
func TestBlocks(t *testing.T) {
	c, err := live.NewSpec("full", live.Config{System: "sys", BlockOptions: engine.BlockOptions{MaxChars: 60},
		Blocks: []engine.Item{{ID: "p1", Source: "policy", Description: "refunds",
			Content: "Refunds are accepted within 30 days of purchase with the receipt; sale items are final sale."}}})
	if err != nil {
		t.Fatal(err)
	}
	c.Begin(user("hello"))
	s, err := c.Render(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := "sys\n\n<context name=\"policy\" description=\"refunds\">\nRefunds are accepted with…[cut: showing 25 of 92 characters]\n</context>"
	if s.System != want || !slices.Equal(s.Window, window.Indices{0, 1, 2}) {
		t.Fatalf("system %q window %v", s.System, s.Window)
	}
	if cuts := c.Cuts(); len(cuts) != 1 || cuts[0].ID != "p1" || cuts[0].KeptChars != 25 || cuts[0].Chars != 92 {
		t.Fatalf("cuts %+v", cuts)
	}
}

// TestCheapestRefused: cheapest, alone or edited, as a spec or a value,
// is refused: it would silently send what full sends.
func TestCheapestRefused(t *testing.T) {
	for _, spec := range []string{"cheapest", "cheapest:keep=2", "cheapest+limit:bytes=100"} {
		if _, err := live.NewSpec(spec, live.Config{}); !errors.Is(err, live.ErrHindsight) {
			t.Errorf("%s: %v, want ErrHindsight", spec, err)
		}
	}
	s, err := window.Parse("cheapest", window.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := live.New(s, live.Config{}); !errors.Is(err, live.ErrHindsight) {
		t.Errorf("New(cheapest): %v", err)
	}
}
