package prices_test

import (
	"fmt"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
)

// A call's prices depend on its model, its date and its size: Opus 4.6
// above 200,000 input tokens before 2026-03-13 is billed at the long-prompt
// tier.
func ExampleModel_At() {
	m := prices.Default().LookupCall("claude-opus-4-6-20260201")
	early := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	fmt.Println(m.PriceModel, m.CacheRule())
	fmt.Println(m.At(early, 250000).Input, m.At(early, 1000).Input, m.At(time.Time{}, 250000).Input)
	// Output:
	// anthropic/claude-opus-4-6 anthropic
	// 10 5 5
}

// A name resolves to one model: its window and tokenizer (a dated
// snapshot finds its family's preset), its prices and its cache rule. A
// model only the price data knows has no preset window (the data's is
// DataWindow) and counts with its maker's tokenizer, here the estimate.
func ExampleCatalog_Lookup() {
	cat := prices.Default()
	m, err := cat.Lookup("gpt-4o-2024-08-06")
	fmt.Println(m.Name, m.ContextWindow, m.OutputLimit, m.Tokenizer, m.Exact(), m.Cache, err)
	m, _ = cat.Lookup("claude-opus-4-6")
	c, err := m.Counter()
	fmt.Println(m.Name, m.ContextWindow, m.DataWindow(), c.Name(), m.Exact(), m.Prices.Input, m.Cache, err)
	_, err = cat.Lookup("gpt-4-o")
	fmt.Println(err)
	// Output:
	// gpt-4o 128000 16384 o200k_base true openai <nil>
	// claude-opus-4-6 0 1000000 estimate false 5 anthropic <nil>
	// unknown model "gpt-4-o"; did you mean gpt-4o, gpt-4, gpt-4.1
}

// A Bedrock id finds Bedrock's own prices.
func ExampleDB_Find() {
	e, ok := prices.Snapshot().Find("us.anthropic.claude-sonnet-4-5-20250929-v1:0")
	p := e.At(time.Time{}, 1000)
	fmt.Println(ok, e.Provider, p.Input, p.Output)
	// Output:
	// true aws 3.3 16.5
}

// Overrides, as harpe.yaml's models: gives them, beat the data.
func ExampleNewCatalog() {
	cat, err := prices.NewCatalog(nil, nil, []prices.Override{
		{Name: "claude-opus-4-6", Prices: &prices.Prices{Input: 4, Output: 20, Source: "our contract"}},
	})
	if err != nil {
		panic(err)
	}
	m := cat.LookupCall("claude-opus-4-6")
	fmt.Println(m.Prices.Input, m.PriceSource, m.CacheRule())
	// Output:
	// 4 our contract anthropic
}
