// Package tokenize counts tokens.
//
// # Counters
//
// A [Counter] turns text into a token count. [Estimate] is the default: a
// fast rule that needs no vocabulary and is the same in every build (see
// [EstimateTokens] for the rule). [New] returns a counter by name, so a
// command-line flag or a configuration value can pick one. A library user
// can plug in any tokenizer by implementing [Counter].
package tokenize

import (
	"fmt"
	"strings"
)

// Counter counts the tokens a text takes.
type Counter interface {
	// Count returns the number of tokens in s.
	Count(s string) int
	// Name identifies the counter in reports ("estimate", "o200k_base").
	Name() string
}

// Estimate is the estimate counter; see [EstimateTokens].
var Estimate Counter = estimator{}

type estimator struct{}

func (estimator) Count(s string) int { return EstimateTokens(s) }
func (estimator) Name() string       { return "estimate" }

// Names lists the counters [New] knows, in the order help text shows them.
func Names() []string {
	return []string{"estimate", "o200k_base", "cl100k_base"}
}

// New returns the counter with the given name.
func New(name string) (Counter, error) {
	switch name {
	case "estimate":
		return Estimate, nil
	case "o200k_base":
		return O200kBase, nil
	case "cl100k_base":
		return Cl100kBase, nil
	}
	return nil, fmt.Errorf("unknown tokenizer %q; valid: %s", name, strings.Join(Names(), ", "))
}
