package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/internal/termtext"

	"github.com/harpe-dev/harpe/pkg/usage"
)

// WriteTranscriptSummary writes s for people, as `harpe transcript` does:
// one line of figures per session (or
// group), with where it ran and who answered on an indented line under
// it, then the total, then a line naming what the cost leaves out for
// want of a price. A cost with nothing priced reads "unpriced", never
// 0.00. Tokens are written as 17.2M or 738k (the JSON has the exact
// figures), in fixed columns, so the table fits 80 columns whatever the
// names (a bordered table of nine columns wrapped every row). Rows are
// written as they are formatted, not built whole first.
func WriteTranscriptSummary(w io.Writer, s *usage.Summary) error {
	first, count := "start (UTC)", "calls"
	if s.By != "session" {
		first, count = s.By, "sessions"
	}
	key := func(k string) string {
		if s.By == "model" {
			return termtext.Escape(transcriptDropDate(k)) // the JSON keeps the whole id
		}
		return termtext.Escape(k)
	}
	kw := 16 // "2026-11-24 09:12"; wider keys widen the column
	for _, g := range s.Groups {
		kw = max(kw, len([]rune(key(g.Key))))
	}
	b := bufio.NewWriter(w)
	// first kw wide; calls (or sessions) 8; input 7; cache read 11; cache
	// write 12; output 8; cost 10: 72 columns for a key of 16.
	const columns = "%-*s %7s %7s %11s %12s %8s %10s\n"
	line := func(key string, n int, r usage.RecordedUsage, c *float64, unpriced []string) {
		fmt.Fprintf(b, columns, kw, key, strconv.Itoa(n), prose.Compact(r.Input), prose.Compact(r.CacheRead),
			prose.Compact(r.CacheWrite), prose.Compact(r.Output), transcriptSummaryCost(c, unpriced))
	}
	fmt.Fprintf(b, columns, kw, first, count, "input", "cache read", "cache write", "output", "cost $")
	t := s.Totals
	if s.By == "session" {
		for i := range s.Sessions.Len() {
			ss := s.Sessions.At(i)
			start := "-"
			if ss.Start != nil && len(*ss.Start) >= 16 {
				start = strings.Replace((*ss.Start)[:16], "T", " ", 1)
			}
			line(start, ss.Recorded.Calls+ss.UnrecordedCalls, ss.Recorded, ss.CostUSD, ss.UnpricedModels)
			project := ss.Project
			if ss.Conversation != "" {
				project += " (" + ss.Conversation + ")"
			}
			if id := ss.Session; id != "" {
				// The session's short id: two sessions of one project apart.
				project = transcriptShortID(id) + "  " + project
			}
			if _, err := fmt.Fprintf(b, "  %s  %s: %s\n", termtext.Escape(project), ss.Format, termtext.Escape(transcriptShortModels(ss.Models))); err != nil {
				return err // a failed write: no use formatting the rest
			}
			if n := ss.UnrecordedCalls; n > 0 {
				verb := "records"
				if n > 1 {
					verb = "record"
				}
				fmt.Fprintf(b, "  + %s %s no usage (aborted?): counted, no tokens, not in the cost\n",
					prose.Plural(n, "call"), verb)
			}
			if ss.RepeatedResponses > 0 {
				fmt.Fprintf(b, "  + %s of an earlier file, not counted here%s\n",
					prose.Plural(ss.RepeatedResponses, "repeated response"), transcriptRepeatedCost(ss.RepeatedUSD))
			}
		}
		line("total", t.Recorded.Calls+t.UnrecordedCalls, t.Recorded, t.CostUSD, t.UnpricedModels)
	} else {
		for _, g := range s.Groups {
			line(key(g.Key), g.Sessions, g.Recorded, g.CostUSD, g.UnpricedModels)
			if s.By != "model" {
				fmt.Fprintf(b, "  %s\n", termtext.Escape(transcriptShortModels(g.Models)))
			}
		}
		line("total", t.Sessions, t.Recorded, t.CostUSD, t.UnpricedModels)
	}
	if left := s.Unpriced(); len(left) > 0 {
		b.WriteString(unpricedLine(left))
	}
	if t.RepeatedResponses > 0 {
		fmt.Fprintf(b, "repeated: %s of earlier files' responses, not in the total%s\n",
			transcriptCopies(t.RepeatedResponses), transcriptRepeatedCost(t.RepeatedUSD))
	}
	transcriptWriteLeftOut(b, s.Skipped, s.BrokenLines, s.BrokenAt)
	return b.Flush()
}

// transcriptCopies is "1 copy" or "n copies".
func transcriptCopies(n int) string {
	if n == 1 {
		return "1 copy"
	}
	return strconv.Itoa(n) + " copies"
}

// transcriptRepeatedCost is " ($1.23)" for what repeated responses cost, ""
// when none was priced.
func transcriptRepeatedCost(c *float64) string {
	if c == nil {
		return ""
	}
	return fmt.Sprintf(" ($%.2f)", *c)
}

// transcriptMaxFooterNamed is how many skipped files or broken lines a table's
// footer names; the JSON names them all.
const transcriptMaxFooterNamed = 10

// transcriptWriteLeftOut writes the footer of what a report leaves out: each
// file skipped with why, and the broken lines skipped with where.
func transcriptWriteLeftOut(b *bufio.Writer, skipped []usage.SkippedFile, broken int, at []string) {
	if len(skipped) > 0 {
		fmt.Fprintf(b, "skipped %s, not in the figures above:\n", prose.Plural(len(skipped), "file"))
		for i, f := range skipped {
			if i == transcriptMaxFooterNamed {
				fmt.Fprintf(b, "  … %d more (the JSON names them all)\n", len(skipped)-i)
				break
			}
			fmt.Fprintf(b, "  %s: %s\n", termtext.Escape(f.File), f.Reason)
		}
	}
	if broken > 0 {
		named := make([]string, min(len(at), transcriptMaxFooterNamed))
		for i := range named {
			named[i] = termtext.Escape(at[i])
		}
		more := ""
		if broken > len(named) {
			more = fmt.Sprintf(", … %d more", broken-len(named))
		}
		fmt.Fprintf(b, "skipped %s (not JSON): %s%s\n", prose.Plural(broken, "broken line"), strings.Join(named, ", "), more)
	}
}

// transcriptShortID is a session id's first 8 characters, escaped for a
// terminal.
func transcriptShortID(id string) string {
	if r := []rune(id); len(r) > 8 {
		id = string(r[:8])
	}
	return termtext.Escape(id)
}

// transcriptSummaryCost is a cost cell: "unpriced" when nothing of it had a
// price, "-" when there is none.
func transcriptSummaryCost(c *float64, unpriced []string) string {
	switch {
	case c == nil && len(unpriced) > 0:
		return "unpriced"
	case c == nil:
		return "-"
	case *c == 0 && len(unpriced) > 0:
		return "unpriced"
	}
	return fmt.Sprintf("%.2f", *c)
}

// transcriptShortModels is the models, each as [transcriptShortModel] writes
// it, repeats next to each other once; "-" for none.
func transcriptShortModels(ms []string) string {
	if len(ms) == 0 {
		return "-"
	}
	short := make([]string, len(ms))
	for i, m := range ms {
		short[i] = transcriptShortModel(m)
	}
	return strings.Join(slices.Compact(short), ", ")
}

// transcriptDropDate drops the date a model id ends with
// ("claude-opus-4-5-20251101" → "claude-opus-4-5").
func transcriptDropDate(m string) string {
	if i := strings.LastIndexByte(m, '-'); i > 0 && len(m)-i == 9 {
		if _, err := strconv.Atoi(m[i+1:]); err == nil {
			return m[:i]
		}
	}
	return m
}

// transcriptShortModel drops the "claude-" a model id starts with and the date
// it ends with ("claude-opus-4-5-20251101" → "opus-4-5"): the harness column
// already says whose it is, and the JSON keeps the whole id.
func transcriptShortModel(m string) string {
	return transcriptDropDate(strings.TrimPrefix(m, "claude-"))
}
