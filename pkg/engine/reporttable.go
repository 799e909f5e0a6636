package engine

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/harpe-dev/harpe/internal/table"
)

// Row is one item of a [Report], kept or dropped, as a table shows it.
type Row struct {
	ID string `json:"id"`
	// Status is "kept" or "dropped".
	Status   string `json:"status"`
	Reason   Reason `json:"reason"`
	Tokens   int    `json:"tokens"`
	Priority int    `json:"priority"`
	// Needed and Left are set for did_not_fit and dimension_cap.
	Needed int `json:"needed,omitempty"`
	Left   int `json:"left,omitempty"`
}

// Rows merges the report's kept and dropped items (each list in input
// order) into one list in input order.
func (r *Report) Rows() []Row {
	out := make([]Row, 0, len(r.Kept)+len(r.Dropped))
	i, j := 0, 0
	for i < len(r.Kept) || j < len(r.Dropped) {
		if j == len(r.Dropped) || (i < len(r.Kept) && r.Kept[i].Index < r.Dropped[j].Index) {
			k := r.Kept[i]
			out = append(out, Row{ID: k.ID, Status: "kept", Reason: k.Reason, Tokens: k.Tokens, Priority: k.Priority})
			i++
			continue
		}
		d := r.Dropped[j]
		row := Row{ID: d.ID, Status: "dropped", Reason: d.Reason, Tokens: d.Tokens, Priority: d.Priority}
		if d.Reason == ReasonDidNotFit || d.Reason == ReasonDimensionCap {
			row.Needed, row.Left = d.Needed, d.Left
		}
		out = append(out, row)
		j++
	}
	return out
}

// TableOptions say how [Report.WriteTable] draws its table: Width is
// the number of columns it is made to fit (below 80, 0 included, it fits
// 80), and EastAsian counts East Asian ambiguous-width characters as two
// columns, as terminals in a CJK locale show them. They are the options
// the tables of package transcript and window take too.
type TableOptions = table.Options

// WriteTable writes the report for people: a row per item in input
// order (kept and dropped, then the skipped lines), a totals footer,
// and for the optimising policies a line naming the solver and the
// utility kept, rounded to four decimals (the JSON keeps every digit).
// Control characters in ids and messages are shown escaped.
func (r *Report) WriteTable(w io.Writer, o TableOptions) error {
	rows := r.Rows()
	cells := make([][]string, 0, len(rows)+len(r.Skipped))
	for _, row := range rows {
		tokens := strconv.Itoa(row.Tokens)
		if row.Reason == ReasonConfidential {
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
		_, err := fmt.Fprintf(w, "policy %s, solver %s, utility %s\n", r.Policy, r.Solver, roundForPeople(*r.Utility))
		return err
	}
	return nil
}

// roundForPeople writes x to at most four decimals (1.0305555555555557 →
// "1.0306").
func roundForPeople(x float64) string {
	return strconv.FormatFloat(math.Round(x*1e4)/1e4, 'f', -1, 64)
}
