package engine

// Row is one item of a [Report], kept or dropped, as the table of
// `harpe synthesize` and the playground show it.
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
