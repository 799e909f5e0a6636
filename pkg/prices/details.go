package prices

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteDetails writes, for people, each model's fields beyond a table's
// row: its provider, tokenizer, context window and output limit with
// their source, its prices per million tokens with their date and source,
// and its prompt-caching rule. Each model starts with an empty line.
func WriteDetails(w io.Writer, models []Model) error {
	var b strings.Builder
	for _, m := range models {
		fmt.Fprintf(&b, "\n%s (%s)\n", m.Name, cmp.Or(m.Provider, "provider unknown"))
		if m.ContextWindow > 0 {
			tok := m.Tokenizer
			if !m.Exact() {
				tok += " (its tokenizer is not built into harpe)"
			}
			fmt.Fprintf(&b, "  tokenizer:  %s\n", tok)
			fmt.Fprintf(&b, "  window:     %d tokens, output %d (as of %s)\n              %s\n", m.ContextWindow, m.OutputLimit, m.AsOf, m.Source)
		} else {
			b.WriteString("  window:     no preset (add one under models: in harpe.yaml to use it with --model)\n")
		}
		if p := m.Prices; p != nil {
			writePrices(&b, &m, p)
		} else {
			b.WriteString("  prices:     none known; its calls are unpriced (add them under models: in harpe.yaml)\n")
		}
		cache := string(m.CacheRule())
		if m.MinCacheTokens > 0 {
			cache += fmt.Sprintf(", prompts of %d tokens or more", m.MinCacheTokens)
		}
		fmt.Fprintf(&b, "  cache:      %s\n", cache)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writePrices writes m's prices p, their date and their source.
func writePrices(b *strings.Builder, m *Model, p *Prices) {
	fmt.Fprintf(b, "  prices:     input %s, cache read %s, cache write 5m %s / 1h %s, output %s\n",
		perMillion(p.Input), perMillion(p.CacheRead), perMillion(p.CacheWrite5m), perMillion(p.CacheWrite1h), perMillion(p.Output))
	asOf := ""
	if p.AsOf != "" {
		asOf = " (as of " + p.AsOf + ")"
	}
	fmt.Fprintf(b, "              US$ per million tokens%s\n              from %s", asOf, m.PriceSource)
	if m.PriceModel != "" {
		fmt.Fprintf(b, ": %s", m.PriceModel)
	}
	b.WriteString("\n")
	if m.PriceVaries != "" {
		fmt.Fprintf(b, "              the prices vary %s (each call is priced at its own)\n", m.PriceVaries)
	}
}

// perMillion writes a price per million tokens with the digits it has.
func perMillion(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
