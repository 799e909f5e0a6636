package play

import (
	"context"
	"errors"
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
	s := engine.DefaultSettings()
	s.Total, s.ReserveOutput, s.ReserveTools = a.Budget, a.ReserveOutput, a.ReserveTools
	if a.SafetyMargin != "" {
		s.SafetyMargin = a.SafetyMargin
	}
	if a.DefaultPriority != 0 {
		s.DefaultPriority = a.DefaultPriority
	}
	if a.Policy != "" {
		s.Options.Policy = a.Policy
	}
	if a.Destination != "" {
		s.Options.Destination = a.Destination
	}
	b, opts, err := s.Check()
	if err != nil {
		return nil, settingError(err)
	}
	c, err := counter(a.Tokenizer)
	if err != nil {
		return nil, err
	}
	opts.Counter = c
	reader := engine.NewItemReader(engine.ReadOptions{DefaultPriority: s.DefaultPriority, SkipInvalid: a.SkipInvalid})
	if err := reader.Read(context.Background(), strings.NewReader(a.Items), a.Name); err != nil {
		return nil, err
	}
	rep, err := engine.Synthesize(context.Background(), reader.Items(), b, opts)
	if err != nil {
		return nil, err
	}
	rep.Skipped = reader.Skipped()
	return &SynthesizeResult{Report: rep, Rows: rep.Rows()}, nil
}

// settingKeys are the keys of [SynthesizeArgs] of engine.Settings' fields,
// by the name an engine.SettingError gives.
var settingKeys = map[string]string{
	"Total": "budget", "ReserveOutput": "reserve_output", "ReserveTools": "reserve_tools",
	"DefaultPriority": "default_priority", "SafetyMargin": "safety_margin", "Budget": "budget",
	"Policy": "policy", "Destination": "destination",
}

// settingError names the key of the setting an engine.SettingError names.
func settingError(err error) error {
	var se *engine.SettingError
	if errors.As(err, &se) {
		if key, ok := settingKeys[se.Setting]; ok {
			return fmt.Errorf("%s: %w", key, se.Err)
		}
	}
	return err
}
