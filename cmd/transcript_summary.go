package cmd

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// unpricedNoter returns a function that notes on stderr, once per model,
// each model that has no prices.
func (a *app) unpricedNoter() func(models []string) {
	noted := map[string]bool{}
	return func(models []string) {
		for _, m := range models {
			if !noted[m] {
				noted[m] = true
				fmt.Fprintf(a.io.Err, "harpe: note: no prices for model %q; its calls are priced at 0 (add them under models: in harpe.yaml)\n", m)
			}
		}
	}
}

// priceSummary prices each session, group and the totals of s at list
// prices, with a note on stderr once for each model that has no prices.
// It returns the calls and tokens the totals leave out for want of a
// price, for the table's footer.
func (a *app) priceSummary(s *transcript.Summary) ([]cost.Unpriced, error) {
	cat, err := a.modelCatalog()
	if err != nil {
		return nil, err
	}
	note := a.unpricedNoter()
	price := func(t *transcript.UsageTally) (*float64, []string) {
		if t.Total == nil {
			return nil, nil
		}
		usd, unpriced, ok := cost.TallyCost(t.ByModel, cat)
		if !ok {
			return nil, nil
		}
		note(unpriced)
		usd = cost.RoundUSD(usd)
		return &usd, unpriced
	}
	for _, ss := range s.Sessions {
		ss.CostUSD, ss.UnpricedModels = price(&ss.Usage)
	}
	for _, g := range s.Groups {
		g.CostUSD, g.UnpricedModels = price(&g.Usage)
	}
	s.Totals.CostUSD, s.Totals.UnpricedModels = price(&s.Totals.Usage)
	if s.Totals.Usage.Total == nil {
		return nil, nil
	}
	return cost.UnpricedIn(s.Totals.Usage.ByModel, cat), nil
}

// writeSummaryTable writes one row per session (or group) and a total
// row, then a line naming what the cost leaves out for want of a price.
// A cost with nothing priced reads "unpriced", never 0.00.
func writeSummaryTable(w io.Writer, s *transcript.Summary, left []cost.Unpriced) error {
	money := func(c *float64, unpriced []string) string {
		switch {
		case c == nil:
			return "-"
		case *c == 0 && len(unpriced) > 0:
			return "unpriced"
		}
		return fmt.Sprintf("%.2f", *c)
	}
	figures := func(r transcript.RecordedUsage, c *float64, unpriced []string) []string {
		return []string{fmt.Sprint(r.Calls), compactCount(r.Input), compactCount(r.CacheRead),
			compactCount(r.CacheWrite), compactCount(r.Output), money(c, unpriced)}
	}
	models := func(ms []string) string {
		if len(ms) == 0 {
			return "-"
		}
		short := make([]string, len(ms))
		for i, m := range ms {
			short[i] = shortModel(m)
		}
		return strings.Join(slices.Compact(short), " ")
	}
	nums := []string{"calls", "input", "cache read", "cache write", "output", "cost $"}
	var header, footer []string
	var rows [][]string
	t := s.Totals
	if s.By == "session" {
		header = append([]string{"start", "project", "harness, models"}, nums...)
		for _, ss := range s.Sessions {
			start := "-"
			if ss.Start != nil {
				start = strings.Replace((*ss.Start)[:16], "T", " ", 1)
			}
			project := ss.Project
			if ss.Conversation != "" {
				project += " (" + ss.Conversation + ")"
			}
			rows = append(rows, append([]string{start, project, ss.Format + ": " + models(ss.Models)}, figures(ss.Recorded, ss.CostUSD, ss.UnpricedModels)...))
		}
		footer = append([]string{"total", "", ""}, figures(t.Recorded, t.CostUSD, t.UnpricedModels)...)
	} else {
		header = append([]string{s.By, "sessions"}, nums...)
		if s.By != "model" {
			header = append([]string{s.By, "sessions", "models"}, nums...)
		}
		for _, g := range s.Groups {
			row := []string{g.Key, fmt.Sprint(g.Sessions)}
			if s.By != "model" {
				row = append(row, models(g.Models))
			}
			rows = append(rows, append(row, figures(g.Recorded, g.CostUSD, g.UnpricedModels)...))
		}
		footer = []string{"total", fmt.Sprint(t.Sessions)}
		if s.By != "model" {
			footer = append(footer, "")
		}
		footer = append(footer, figures(t.Recorded, t.CostUSD, t.UnpricedModels)...)
	}
	if err := renderTable(w, header, rows, footer); err != nil {
		return err
	}
	if len(left) > 0 {
		_, err := io.WriteString(w, unpricedLine(left))
		return err
	}
	return nil
}

// compactCount writes n with three significant digits and a k or M
// suffix from 10,000 up (12345 → "12.3k", 17158013 → "17.2M"), for
// tables people read; the JSON keeps the exact figures.
func compactCount(n int) string {
	f := float64(n)
	switch {
	case n < 10000:
		return strconv.Itoa(n)
	case n < 999500:
		return strconv.FormatFloat(f/1e3, 'f', max(0, 2-digitsBefore(f/1e3)), 64) + "k"
	case n < 999500000:
		return strconv.FormatFloat(f/1e6, 'f', max(0, 2-digitsBefore(f/1e6)), 64) + "M"
	default:
		return strconv.FormatFloat(f/1e9, 'f', max(0, 2-digitsBefore(f/1e9)), 64) + "G"
	}
}

// digitsBefore is how many digits x (≥ 1) has before the point, minus one.
func digitsBefore(x float64) int {
	d := 0
	for x >= 9.995 { // 9.996 rounds up to 10.0 at two decimals
		x /= 10
		d++
	}
	return d
}

// shortModel drops the "claude-" a model id starts with and the date it
// ends with ("claude-opus-4-5-20251101" → "opus-4-5"): the harness
// column already says whose it is, and the JSON keeps the whole id.
func shortModel(m string) string {
	m = strings.TrimPrefix(m, "claude-")
	if i := strings.LastIndexByte(m, '-'); i > 0 && len(m)-i == 9 {
		if _, err := strconv.Atoi(m[i+1:]); err == nil {
			return m[:i]
		}
	}
	return m
}
