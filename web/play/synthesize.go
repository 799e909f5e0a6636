package play

import (
	"context"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// SynthesizeArgs are the arguments of "synthesize", the playground's
// `harpe synthesize`.
type SynthesizeArgs struct {
	// Items is the JSONL text of the items editor.
	Items string `json:"items"`
	// Name names the items in error messages ("items.jsonl" when empty).
	Name          string `json:"name"`
	Budget        int    `json:"budget"`
	ReserveOutput int    `json:"reserve_output"`
	ReserveTools  int    `json:"reserve_tools"`
	// SafetyMargin is N or N% of Budget, as --safety-margin; "" is 0.
	SafetyMargin string `json:"safety_margin"`
	// Policy and Tokenizer default to lowest_priority and estimate.
	Policy    string `json:"policy"`
	Tokenizer string `json:"tokenizer"`
	// Destination is remote (the default) or local.
	Destination engine.Destination `json:"destination"`
	// DefaultPriority is the priority of items without one (10 when 0).
	DefaultPriority int `json:"default_priority"`
	// SkipInvalid skips bad lines, listing them in the report.
	SkipInvalid bool `json:"skip_invalid"`
}

// SynthesizeResult is the answer of "synthesize": harpe's report and the
// same items as table rows in input order.
type SynthesizeResult struct {
	Report *engine.Report `json:"report"`
	Rows   []Row          `json:"rows"`
}

// Row is one item of the report, kept or dropped.
type Row = engine.Row

func synthesize(raw []byte) (any, error) {
	var a SynthesizeArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	return Synthesize(a)
}

// Synthesize chooses the items that fit, as `harpe synthesize` does.
func Synthesize(a SynthesizeArgs) (*SynthesizeResult, error) {
	if a.Name == "" {
		a.Name = "items.jsonl"
	}
	if a.DefaultPriority == 0 {
		a.DefaultPriority = 10
	}
	if a.SafetyMargin == "" {
		a.SafetyMargin = "0"
	}
	for _, v := range []struct {
		name string
		n    int
	}{{"budget", a.Budget}, {"reserve_output", a.ReserveOutput}, {"reserve_tools", a.ReserveTools}, {"default_priority", a.DefaultPriority}} {
		if v.n < 0 {
			return nil, fmt.Errorf("%s: must be ≥ 0, got %d", v.name, v.n)
		}
	}
	margin, err := engine.ParseAmount(strings.TrimSpace(a.SafetyMargin))
	if err != nil {
		return nil, fmt.Errorf("safety_margin: %v", err)
	}
	b := engine.Budget{Total: a.Budget, ReserveOutput: a.ReserveOutput, ReserveTools: a.ReserveTools, SafetyMargin: margin.Of(a.Budget)}
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("budget: %v", err)
	}
	if a.Policy == "" {
		a.Policy = engine.DefaultPolicy
	}
	if _, err := engine.LookupPolicy(a.Policy); err != nil {
		return nil, fmt.Errorf("policy: %v", err)
	}
	if a.Destination == "" {
		a.Destination = engine.DestinationRemote
	}
	if a.Destination != engine.DestinationRemote && a.Destination != engine.DestinationLocal {
		return nil, fmt.Errorf("destination: unknown destination %q; valid: remote, local", a.Destination)
	}
	c, err := counter(a.Tokenizer)
	if err != nil {
		return nil, err
	}
	reader := engine.NewItemReader(engine.ReadOptions{DefaultPriority: a.DefaultPriority, SkipInvalid: a.SkipInvalid})
	if err := reader.Read(context.Background(), strings.NewReader(a.Items), a.Name); err != nil {
		return nil, err
	}
	rep, err := engine.Synthesize(context.Background(), reader.Items(), b, engine.Options{Policy: a.Policy, Counter: c, Destination: a.Destination})
	if err != nil {
		return nil, err
	}
	rep.Skipped = reader.Skipped()
	return &SynthesizeResult{Report: rep, Rows: rep.Rows()}, nil
}
