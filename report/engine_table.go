package report

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/pkg/engine"
)

// WriteSynthesisTable writes r for people, as `harpe synthesize
// --format table` does: a row per item in input order (kept and dropped,
// then the skipped lines), a totals footer, and for the optimising
// policies a line naming the solver and the utility kept, rounded to four
// decimals (the JSON keeps every digit). Control characters in ids and
// messages are shown escaped. o.Width is the number of columns the table
// is made to fit (below 80, 0 included, it fits 80); o.EastAsian counts
// East Asian ambiguous-width characters as two columns, as terminals in
// a CJK locale show them.
func WriteSynthesisTable(w io.Writer, r *engine.Report, o table.Options) error {
	rows := r.Rows()
	cells := make([][]string, 0, len(rows)+len(r.Skipped))
	for _, row := range rows {
		tokens := strconv.Itoa(row.Tokens)
		if row.Reason == engine.ReasonConfidential {
			tokens = "-" // never counted
		}
		cells = append(cells, []string{row.ID, tokens, strconv.Itoa(row.Priority), row.Status, string(row.Reason)})
	}
	for _, s := range r.Skipped {
		cells = append(cells, []string{"line " + strconv.Itoa(s.Line), "-", "-", "skipped", s.Error})
	}
	left := fmt.Sprintf("%d left", r.RemainingTokens)
	if r.OverBudget {
		left = fmt.Sprintf("%d over budget", r.OverflowTokens)
	}
	footer := []string{"total", strconv.Itoa(r.ConsumedTokens), "", fmt.Sprintf("%d kept", len(r.Kept)), left}
	if err := table.Render(w, o.AtLeastMin(), []string{"ID", "TOKENS", "PRIORITY", "STATUS", "REASON"}, cells, footer); err != nil {
		return err
	}
	if r.Solver != "" && r.Utility != nil {
		_, err := fmt.Fprintf(w, "policy %s, solver %s, utility %s\n", r.Policy, r.Solver, engineRoundForPeople(*r.Utility))
		return err
	}
	return nil
}

// engineRoundForPeople writes x to at most four decimals
// (1.0305555555555557 → "1.0306").
func engineRoundForPeople(x float64) string {
	return strconv.FormatFloat(math.Round(x*1e4)/1e4, 'f', -1, 64)
}
