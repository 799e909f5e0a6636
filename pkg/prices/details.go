package prices

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/table"
)

// TableOptions say how [WriteTable] draws its table: Width is the number
// of columns it is made to fit (below 80, 0 included, it fits 80), and
// EastAsian counts East Asian ambiguous-width characters as two columns.
// They are the options the report tables of packages transcript, engine
// and window take.
type TableOptions = table.Options

// WriteTable writes models for people, a row each: context window,
// output limit ("-" when none is published) and prices in US dollars per
// million tokens (input, cache read, 5-minute cache write, output; "-"
// when unpriced, a write "free" when caching costs nothing extra), then a
// legend and the sources of the prices. The tokenizer, the 1-hour write
// price and the sources of each model are in [WriteDetails].
func WriteTable(w io.Writer, models []Model, o TableOptions) error {
	rows := make([][]string, 0, len(models))
	var srcs []string
	for _, m := range models {
		row := []string{m.Name, orDash(m.ContextWindow), orDash(m.OutputLimit), "-", "-", "-", "-"}
		if p := m.Prices; p != nil {
			write := perMillion(p.CacheWrite5m)
			if (p.CacheWrite5m == 0 || p.CacheWrite5m == p.Input) && m.CacheRule() != CacheAnthropic {
				write = "free"
			}
			row = append(row[:3], perMillion(p.Input), perMillion(p.CacheRead), write, perMillion(p.Output))
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

// orDash writes a limit, "-" for none (0).
func orDash(n int) string {
	if n <= 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

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
