package report_test

import (
	"os"

	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/report"
)

// A model of one's own, as a configuration file's models: entry gives it.
func ExampleWriteModelDetails() {
	m := prices.Model{
		Name: "my-local-model", ContextWindow: 32768, OutputLimit: 4096,
		Tokenizer: "cl100k_base", Source: "our deployment notes", AsOf: "2026-01-15",
		Prices:      &prices.Prices{Input: 0.5, CacheRead: 0.05, Output: 1.5, AsOf: "2026-01-15"},
		PriceSource: "harpe.yaml",
		Cache:       prices.CacheOpenAI,
	}
	if err := report.WriteModelDetails(os.Stdout, []prices.Model{m}); err != nil {
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
func ExampleWriteModelTable() {
	m := prices.Model{
		Name: "my-local-model", ContextWindow: 32768, OutputLimit: 4096, Tokenizer: "cl100k_base",
		Prices:      &prices.Prices{Input: 0.5, CacheRead: 0.05, Output: 1.5},
		PriceSource: "harpe.yaml",
		Cache:       prices.CacheOpenAI,
	}
	if err := report.WriteModelTable(os.Stdout, []prices.Model{m, {Name: "unpriced"}}, table.Options{}); err != nil {
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
