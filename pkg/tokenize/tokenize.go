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
// tokenizer by implementing [Counter]. Every count takes a context:
//
//	n, err := c.Count(ctx, text) // err is ctx's error once ctx is done
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
// per byte. [CountReader] and every counter's Count stop once their
// context is done, also inside one long piece. A [Report] holds the counts of
// several inputs by several counters, as harpe count prints them.
//
// Which tokenizer a model counts with is package
// github.com/harpe-dev/harpe/pkg/prices' (its Model, with the model's
// window, prices and cache rule): pkg/prices imports this package, never
// the other way round.
package tokenize

import (
	"context"
	"fmt"
	"strings"
)

// Counter counts the tokens a text takes.
type Counter interface {
	// Count returns the number of tokens in s, or ctx's error and no
	// count once ctx is done. The built-in counters look at ctx before
	// they start and then every few thousand pieces, never per token.
	Count(ctx context.Context, s string) (int, error)
	// Name identifies the counter in reports ("estimate", "o200k_base").
	Name() string
}

// Estimate is the estimate counter; see [EstimateTokens].
var Estimate Counter = estimator{}

type estimator struct{}

func (estimator) Name() string { return "estimate" }

// Names lists the counters [New] knows, in the order help text shows them.
func Names() []string {
	return []string{"estimate", "o200k_base", "cl100k_base"}
}

// New returns the counter with the given name. An exact encoding whose
// table is not in the build (its subpackage not imported) is an error
// that names the package to import. Other names go to the registered
// resolvers (see [RegisterResolverNames]).
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
