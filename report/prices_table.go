package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/prices"
)

// WriteModelTable writes models for people, a row each: context window,
// output limit ("-" when none is published) and prices in US dollars per
// million tokens (input, cache read, 5-minute cache write, output; "-"
// when unpriced; a write that costs what input does, as OpenAI's and
// Gemini's, is that price, as [WriteModelDetails] gives it), then a
// legend and the sources of the prices: the table of `harpe models`. The
// tokenizer, the 1-hour write price and the sources of each model are in
// [WriteModelDetails]. o.Width is the number of columns the table is made
// to fit (below 80, 0 included, it fits 80); o.EastAsian counts East Asian
// ambiguous-width characters as two columns.
func WriteModelTable(w io.Writer, models []prices.Model, o table.Options) error {
	rows := make([][]string, 0, len(models))
	var srcs []string
	for _, m := range models {
		row := []string{m.Name, pricesOrDash(m.ContextWindow), pricesOrDash(m.OutputLimit), "-", "-", "-", "-"}
		if p := m.Prices; p != nil {
			w5, _ := pricesWrite5m1h(&m, p)
			row = append(row[:3], pricesPerMillion(p.Input), pricesPerMillion(p.CacheRead), pricesPerMillion(w5), pricesPerMillion(p.Output))
		}
		rows = append(rows, row)
		if m.PriceSource != "" && !slices.Contains(srcs, m.PriceSource) {
			srcs = append(srcs, m.PriceSource)
		}
	}
	if err := table.Render(w, o.AtLeastMin(), []string{"MODEL", "CONTEXT", "OUTPUT", "IN", "READ", "WRITE", "OUT"}, rows, nil); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("IN READ WRITE OUT: US$ per million tokens (input, cache read, 5-minute cache\n" +
		"write, output); -: not priced. OUTPUT -: no separate limit published.\n")
	slices.Sort(srcs)
	if len(srcs) > 0 {
		fmt.Fprintf(&b, "Prices from %s.\n", strings.Join(srcs, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pricesOrDash writes a limit, "-" for none (0).
func pricesOrDash(n int) string {
	if n <= 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// WriteModelDetails writes, for people, each model's fields beyond a
// table's row: its provider, tokenizer, context window and output limit
// with their source, its prices per million tokens with their date and
// source, and its prompt-caching rule, as `harpe models NAME` does (the
// wording names harpe.yaml and --model). Each model starts with an empty
// line.
func WriteModelDetails(w io.Writer, models []prices.Model) error {
	var b strings.Builder
	for _, m := range models {
		fmt.Fprintf(&b, "\n%s (%s)\n", m.Name, cmp.Or(m.Provider, "provider unknown"))
		if tok := m.Tokenizer; tok != "" {
			if !m.Exact() {
				tok += " (its tokenizer is not built into harpe)"
			}
			fmt.Fprintf(&b, "  tokenizer:  %s\n", tok)
		}
		switch {
		case m.ContextWindow > 0:
			fmt.Fprintf(&b, "  window:     %d tokens, output %d (as of %s)\n              %s\n", m.ContextWindow, m.OutputLimit, m.AsOf, m.Source)
		case m.DataWindow() > 0:
			fmt.Fprintf(&b, "  window:     %d tokens, from %s (no preset; --model takes it)\n", m.DataWindow(), m.PriceSource)
		default:
			b.WriteString("  window:     not known (no preset, none in the price data; add one under models: in harpe.yaml)\n")
		}
		if p := m.Prices; p != nil {
			pricesWrite(&b, &m, p)
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

// pricesWrite writes m's prices p, their date and their source.
func pricesWrite(b *strings.Builder, m *prices.Model, p *prices.Prices) {
	w5, w1 := pricesWrite5m1h(m, p)
	fmt.Fprintf(b, "  prices:     input %s, cache read %s, cache write 5m %s / 1h %s, output %s\n",
		pricesPerMillion(p.Input), pricesPerMillion(p.CacheRead), pricesPerMillion(w5), pricesPerMillion(w1), pricesPerMillion(p.Output))
	if pricesInputWrites(m, p) {
		b.WriteString("              a cache write costs the input price: nothing is added for writing\n")
	}
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

// pricesInputWrites tells a model whose cache writes cost what input
// does (a rule that does not write, OpenAI's and Gemini's: the prices
// give no write price, or the input price).
func pricesInputWrites(m *prices.Model, p *prices.Prices) bool {
	return !cost.RuleOf(m.CacheRule()).Writes() && (p.CacheWrite5m == 0 || p.CacheWrite5m == p.Input) &&
		(p.CacheWrite1h == 0 || p.CacheWrite1h == p.Input)
}

// pricesWrite5m1h are the prices of a 5-minute and a 1-hour cache write,
// as a call pays them: the input price where [pricesInputWrites].
func pricesWrite5m1h(m *prices.Model, p *prices.Prices) (float64, float64) {
	if pricesInputWrites(m, p) {
		return p.Input, p.Input
	}
	return p.CacheWrite5m, p.CacheWrite1h
}

// pricesPerMillion writes a price per million tokens with the digits it
// has.
func pricesPerMillion(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
