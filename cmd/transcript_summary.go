package cmd

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

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

// writeSummaryTable writes one line of figures per session (or group),
// with where it ran and who answered on an indented line under it, then
// the total, then a line naming what the cost leaves out for want of a
// price. A cost with nothing priced reads "unpriced", never 0.00. The
// figures are in fixed columns, so the table fits 80 columns whatever the
// names (a bordered table of nine columns wrapped every row).
func writeSummaryTable(w io.Writer, s *transcript.Summary, left []transcript.UnpricedCalls) error {
	money := func(c *float64, unpriced []string) string {
		switch {
		case c == nil:
			return "-"
		case *c == 0 && len(unpriced) > 0:
			return "unpriced"
		}
		return fmt.Sprintf("%.2f", *c)
	}
	models := func(ms []string) string {
		if len(ms) == 0 {
			return "-"
		}
		short := make([]string, len(ms))
		for i, m := range ms {
			short[i] = shortModel(m)
		}
		return strings.Join(slices.Compact(short), ", ")
	}
	first := "start (UTC)"
	if s.By != "session" {
		first = s.By
	}
	key := func(k string) string {
		if s.By == "model" {
			return escapeControl(dropDate(k)) // the JSON keeps the whole id
		}
		return escapeControl(k)
	}
	kw := 16 // "2026-11-24 09:12"; wider keys widen the column
	for _, g := range s.Groups {
		kw = max(kw, len([]rune(key(g.Key))))
	}
	var b strings.Builder
	// first kw wide; calls (or sessions) 8; input 7; cache read 11; cache
	// write 12; output 8; cost 10: 72 columns for a key of 16.
	line := func(key string, n string, r transcript.RecordedUsage, c *float64, unpriced []string) {
		fmt.Fprintf(&b, "%-*s %7s %7s %11s %12s %8s %10s\n", kw, key, n,
			compactCount(r.Input), compactCount(r.CacheRead), compactCount(r.CacheWrite), compactCount(r.Output), money(c, unpriced))
	}
	count := "calls"
	if s.By != "session" {
		count = "sessions"
	}
	fmt.Fprintf(&b, "%-*s %7s %7s %11s %12s %8s %10s\n", kw, first, count, "input", "cache read", "cache write", "output", "cost $")
	t := s.Totals
	if s.By == "session" {
		for _, ss := range s.Sessions {
			start := "-"
			if ss.Start != nil && len(*ss.Start) >= 16 {
				start = strings.Replace((*ss.Start)[:16], "T", " ", 1)
			}
			line(start, fmt.Sprint(ss.Recorded.Calls), ss.Recorded, ss.CostUSD, ss.UnpricedModels)
			project := ss.Project
			if ss.Conversation != "" {
				project += " (" + ss.Conversation + ")"
			}
			fmt.Fprintf(&b, "  %s  %s: %s\n", escapeControl(project), ss.Format, escapeControl(models(ss.Models)))
		}
		line("total", fmt.Sprint(t.Recorded.Calls), t.Recorded, t.CostUSD, t.UnpricedModels)
	} else {
		for _, g := range s.Groups {
			line(key(g.Key), fmt.Sprint(g.Sessions), g.Recorded, g.CostUSD, g.UnpricedModels)
			if s.By != "model" {
				fmt.Fprintf(&b, "  %s\n", escapeControl(models(g.Models)))
			}
		}
		line("total", fmt.Sprint(t.Sessions), t.Recorded, t.CostUSD, t.UnpricedModels)
	}
	if len(left) > 0 {
		b.WriteString(unpricedLine(left))
	}
	_, err := io.WriteString(w, b.String())
	return err
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

// dropDate drops the date a model id ends with
// ("claude-opus-4-5-20251101" → "claude-opus-4-5").
func dropDate(m string) string {
	if i := strings.LastIndexByte(m, '-'); i > 0 && len(m)-i == 9 {
		if _, err := strconv.Atoi(m[i+1:]); err == nil {
			return m[:i]
		}
	}
	return m
}

// shortModel drops the "claude-" a model id starts with and the date it
// ends with ("claude-opus-4-5-20251101" → "opus-4-5"): the harness
// column already says whose it is, and the JSON keeps the whole id.
func shortModel(m string) string {
	return dropDate(strings.TrimPrefix(m, "claude-"))
}
