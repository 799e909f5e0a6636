package play

import (
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// InfoResult is the answer of "info": the choices the page's controls
// offer, from the packages themselves.
type InfoResult struct {
	Policies      []string    `json:"policies"`
	Tokenizers    []Tokenizer `json:"tokenizers"`
	Formats       []string    `json:"formats"`
	Strategies    []string    `json:"strategies"`
	Functions     []string    `json:"functions"`
	DefaultPolicy string      `json:"default_policy"`
}

func info([]byte) (any, error) { return Info(), nil }

// Info lists the policies, tokenizers (with whether each is loaded),
// transcript formats, replay strategies and functions.
func Info() *InfoResult {
	out := &InfoResult{Policies: engine.PolicyNames(), Formats: transcript.FormatNames(), Functions: Functions(), DefaultPolicy: engine.DefaultPolicy}
	for _, n := range tokenize.Names() {
		e := encodingNamed(n)
		out.Tokenizers = append(out.Tokenizers, Tokenizer{Name: n, Loaded: e == nil || e.Registered() || loadedEncoding(n) != nil})
	}
	out.Strategies = window.Names()
	return out
}
