package engine

import "io"

// WriteLines writes the input line ([Item.Raw]) of each kept item, or
// with kept false of each dropped one, byte for byte, one a line, in
// input order. items are those the report was made of.
func (r *Report) WriteLines(w io.Writer, items []Item, kept bool) error {
	var indices []int
	if kept {
		for _, k := range r.Kept {
			indices = append(indices, k.Index)
		}
	} else {
		for _, d := range r.Dropped {
			indices = append(indices, d.Index)
		}
	}
	for _, i := range indices {
		if _, err := w.Write(items[i].Raw); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	return nil
}

// WriteRendered writes the contents of the kept items in input order,
// each followed by a newline and a blank line between two: the context
// the model call gets. items are those the report was made of.
func (r *Report) WriteRendered(w io.Writer, items []Item) error {
	for n, k := range r.Kept {
		if n > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, items[k.Index].Content); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	return nil
}
