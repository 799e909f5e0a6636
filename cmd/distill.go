package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/harpe-dev/harpe/internal/distill"
	"github.com/harpe-dev/harpe/pkg/window/summary"
	"github.com/spf13/cobra"
)

// defaultDistillTimeout is --distill-timeout's default.
const defaultDistillTimeout = 120 * time.Second

// addDistillFlags adds --distill-timeout to the replay command c, beside
// the --distill-cmd it bounds.
func addDistillFlags(a *app, c *cobra.Command) {
	c.Flags().DurationVar(&a.distillTimeout, "distill-timeout", defaultDistillTimeout,
		"end a --distill-cmd run that takes longer than `DURATION` (0: no limit)")
	prev := c.PreRunE
	c.PreRunE = func(c *cobra.Command, args []string) error {
		if a.distillTimeout < 0 {
			return usageErrorf("--distill-timeout: must be ≥ 0, got %v", a.distillTimeout)
		}
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}

// distiller runs the --distill-cmd shell command for each compaction
// (see internal/distill): the request as JSON on stdin, the summary from
// stdout, bounded by --distill-timeout and ended when the run is.
func (a *app) distiller(command string) summary.Distiller {
	return func(req summary.Request) (string, error) {
		in, err := json.Marshal(distillStdinOf(req))
		if err != nil {
			return "", err
		}
		s, err := distill.Run(a.ctx, command, append(in, '\n'), distill.Options{Timeout: a.distillTimeout, OnStart: a.aborts.Add})
		if te := (*distill.TimeoutError)(nil); errors.As(err, &te) {
			return "", fmt.Errorf("%q did not finish within %v (--distill-timeout); ended", te.Command, te.Limit)
		}
		return s, err
	}
}

// distillStdin is what --distill-cmd reads on stdin (docs/replay.md).
type distillStdin struct {
	Summary  string                `json:"summary"`
	MaxChars int                   `json:"max_chars"`
	Messages []distillStdinMessage `json:"messages"`
}

type distillStdinMessage struct {
	Index      int                `json:"index"`
	Turn       int                `json:"turn"`
	Role       string             `json:"role"`
	Content    string             `json:"content"`
	ToolCalls  []distillStdinCall `json:"tool_calls,omitempty"`
	ToolCallID string             `json:"tool_call_id,omitempty"`
}

type distillStdinCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func distillStdinOf(req summary.Request) distillStdin {
	in := distillStdin{Summary: req.Summary, MaxChars: req.MaxChars, Messages: make([]distillStdinMessage, 0, len(req.Messages))}
	for _, m := range req.Messages {
		dm := distillStdinMessage{Index: m.Index, Turn: m.Turn, Role: string(m.Role), Content: m.Text, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			dm.ToolCalls = append(dm.ToolCalls, distillStdinCall{tc.ID, tc.Name, tc.Arguments})
		}
		in.Messages = append(in.Messages, dm)
	}
	return in
}
