package prices_test

import (
	"fmt"
	"os"

	"github.com/harpe-dev/harpe/pkg/prices"
)

// A dated snapshot finds its preset; a name no model has is a filter:
// every preset whose name contains it, the ones already picked once.
func ExampleCatalog_Select() {
	ms, err := prices.Default().Select([]string{"claude-haiku-4-5-20251001", "haiku"})
	if err != nil {
		panic(err)
	}
	for _, m := range ms {
		fmt.Println(m.Name, m.ContextWindow)
	}
	_, err = prices.Default().Select([]string{"no-such-model-xyz"})
	fmt.Println(err != nil)
	// Output:
	// claude-haiku-4-5 200000
	// claude-3-5-haiku 200000
	// claude-3-haiku 0
	// true
}

// A model of one's own, as a configuration file's models: entry gives it.
func ExampleWriteDetails() {
	m := prices.Model{
		Name: "my-local-model", ContextWindow: 32768, OutputLimit: 4096,
		Tokenizer: "cl100k_base", Source: "our deployment notes", AsOf: "2026-01-15",
		Prices:      &prices.Prices{Input: 0.5, CacheRead: 0.05, Output: 1.5, AsOf: "2026-01-15"},
		PriceSource: "harpe.yaml",
		Cache:       prices.CacheOpenAI,
	}
	if err := prices.WriteDetails(os.Stdout, []prices.Model{m}); err != nil {
		panic(err)
	}
	// Output:
	//
	// my-local-model (provider unknown)
	//   tokenizer:  cl100k_base
	//   window:     32768 tokens, output 4096 (as of 2026-01-15)
	//               our deployment notes
	//   prices:     input 0.5, cache read 0.05, cache write 5m 0.5 / 1h 0.5, output 1.5
	//               a cache write costs the input price: nothing is added for writing
	//               US$ per million tokens (as of 2026-01-15)
	//               from harpe.yaml
	//   cache:      openai
}

// The presets for people, in a table of 80 columns: a model of one's own
// whose cache writes cost nothing extra.
func ExampleWriteTable() {
	m := prices.Model{
		Name: "my-local-model", ContextWindow: 32768, OutputLimit: 4096, Tokenizer: "cl100k_base",
		Prices:      &prices.Prices{Input: 0.5, CacheRead: 0.05, Output: 1.5},
		PriceSource: "harpe.yaml",
		Cache:       prices.CacheOpenAI,
	}
	if err := prices.WriteTable(os.Stdout, []prices.Model{m, {Name: "unpriced"}}, prices.TableOptions{}); err != nil {
		panic(err)
	}
	// Output:
	// +----------------+---------+--------+-----+------+-------+-----+
	// | MODEL          | CONTEXT | OUTPUT | IN  | READ | WRITE | OUT |
	// +----------------+---------+--------+-----+------+-------+-----+
	// | my-local-model | 32768   | 4096   | 0.5 | 0.05 | 0.5   | 1.5 |
	// | unpriced       | -       | -      | -   | -    | -     | -   |
	// +----------------+---------+--------+-----+------+-------+-----+
	// IN READ WRITE OUT: US$ per million tokens (input, cache read, 5-minute cache
	// write, output); -: not priced. OUTPUT -: no separate limit published.
	// Prices from harpe.yaml.
}
