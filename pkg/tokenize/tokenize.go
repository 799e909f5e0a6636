// Package tokenize counts tokens.
//
// # Counters
//
// A [Counter] turns text into a token count. [Estimate] is the default: a
// fast rule that needs no vocabulary and is the same in every build (see
// [EstimateTokens] for the rule). [O200kBase] and [Cl100kBase] are OpenAI's
// byte-pair encodings, counted exactly as tiktoken's encode_ordinary counts
// them (special-token text is plain text). Their tables (4.3 MB and 2.1 MB)
// live in the subpackages o200k and cl100k, which register them when
// imported, so a build pays only for the encodings it links in:
//
//	import _ "github.com/harpe-dev/harpe/pkg/tokenize/o200k"
//
// [New] returns a counter by name, so a command-line flag or a
// configuration value can pick one. A library user can plug in any
// tokenizer by implementing [Counter].
//
// # Exact encodings
//
// An [Encoding] splits text into pieces with a hand-written scanner that
// matches the encoding's split pattern, then byte-pair merges each piece
// that is not a token by itself. Its tables are generated from
// pkoukk/tiktoken-go-loader's files (go generate) with the hash table
// already built, so first use costs well under a millisecond.
//
// # Streams
//
// [CountReader] counts a reader of any size in bounded memory: it cuts the
// text at boundaries no piece can cross ([SafeBoundary]) and counts the
// chunks in parallel, giving exactly the whole text's counts. A text with
// no such boundary is one long piece, merged in about four bytes of memory
// per byte. [CountReader] and [CountContext] stop once their context
// is done, also inside one long piece. A [Report] holds the counts of
// several inputs by several counters, as harpe count prints them.
//
// # Models
//
// [Models] and [LookupModel] give the built-in model presets (context
// window, output limit, tokenizer, and where the figures come from);
// [NewCatalog] adds or overrides entries, as a configuration file does.
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

// New returns the counter with the given name. An exact encoding whose
// table is not registered (see [Register]) is an error that names the
// package to import. Other names go to the registered resolvers (see
// [RegisterResolverNames]).
func New(name string) (Counter, error) {
	if c, ok, err := resolve(name); ok {
		return c, err
	}
	switch name {
	case "estimate":
		return Estimate, nil
	case "o200k_base", "cl100k_base":
		for _, e := range encodings {
			if e.name == name {
				if !e.Registered() {
					return nil, fmt.Errorf("tokenizer %s is not in this build (import github.com/harpe-dev/harpe/pkg/tokenize/%s)", name, e.pkg)
				}
				return e, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown tokenizer %q; valid: %s", name, strings.Join(Names(), ", "))
}
