package engine

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultMaxChars is the cap of a rendered context block's content, in
// characters (Unicode code points): a block is sent again at every step
// of an agent, so a long one is cut rather than let grow.
const DefaultMaxChars = 4000

// BlockOptions tune the delimited rendering ([Report.WriteBlocks]).
type BlockOptions struct {
	// MaxChars caps every block's content, the cut marker included: 0
	// is [DefaultMaxChars], a negative value no cap.
	MaxChars int
	// SourceMaxChars caps the blocks of the items of a source ([Item.Source])
	// in place of MaxChars (0 or negative: no cap). An item's own
	// [Item.MaxChars] comes first (0: no cap).
	SourceMaxChars map[string]int
}

// Cut is a kept item whose block was cut to its cap.
type Cut struct {
	// Index is the item's position in the input, ID its id, Source its
	// source ("" for none).
	Index  int    `json:"index"`
	ID     string `json:"id"`
	Source string `json:"source,omitempty"`
	// Chars is the content's length, KeptChars how much of it was sent,
	// MaxChars the cap (the marker takes the rest), all in characters.
	Chars     int `json:"chars"`
	KeptChars int `json:"kept_chars"`
	MaxChars  int `json:"max_chars"`
}

// CutMarker is what ends a cut block: "…[cut: showing K of N
// characters]".
func CutMarker(kept, total int) string {
	return "…[cut: showing " + strconv.Itoa(kept) + " of " + strconv.Itoa(total) + " characters]"
}

// capOf returns the cap of it's block (≤ 0: none).
func (o BlockOptions) capOf(it *Item) int {
	if it.MaxChars != nil {
		return *it.MaxChars
	}
	if n, ok := o.SourceMaxChars[it.Source]; ok && it.Source != "" {
		return n
	}
	if o.MaxChars == 0 {
		return DefaultMaxChars
	}
	return o.MaxChars
}

// cutBlock returns the content of it's block, and the cut when it was cut:
// the first K characters and the marker, K the most that keeps both
// within the cap (0 when the marker alone is longer: the marker alone is
// sent then).
func (o BlockOptions) cutBlock(index int, it *Item) (string, *Cut) {
	limit := o.capOf(it)
	if limit <= 0 || len(it.Content) <= limit {
		return it.Content, nil // within the cap: bytes ≥ characters
	}
	total := utf8.RuneCountInString(it.Content)
	if total <= limit {
		return it.Content, nil
	}
	// The marker's length depends on K's digits: start from the
	// longest marker, then take what fits.
	fits := func(k int) bool { return k+utf8.RuneCountInString(CutMarker(k, total)) <= limit }
	k := max(0, limit-utf8.RuneCountInString(CutMarker(limit, total)))
	for k < total && fits(k+1) {
		k++
	}
	for k > 0 && !fits(k) {
		k--
	}
	text := it.Content
	n := 0
	for i := range text {
		if n == k {
			text = text[:i]
			break
		}
		n++
	}
	return text + CutMarker(k, total), &Cut{Index: index, ID: it.ID, Source: it.Source, Chars: total, KeptChars: k, MaxChars: limit}
}

// Cuts lists the kept items whose blocks [Report.WriteBlocks] cuts under
// o, in input order, and sets r.Cut to them: the report then says which
// items were cut and by how much.
func (r *Report) Cuts(items []Item, o BlockOptions) []Cut {
	var out []Cut
	for _, k := range r.Kept {
		if _, c := o.cutBlock(k.Index, &items[k.Index]); c != nil {
			out = append(out, *c)
		}
	}
	r.Cut = out
	return out
}

// attrEscaper writes an attribute value inside double quotes.
var attrEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")

// WriteBlocks writes the kept items in input order as delimited blocks,
// a blank line between two:
//
//	<context name="policy" description="What may be refunded">
//	…the content, cut to its cap with a marker…
//	</context>
//
// The name is the item's source, else its id; the description attribute
// is left out when the item has none; attribute values are escaped as
// XML's (&amp; &quot; &lt; &gt;), the content is written as it is. A
// content longer than its cap (o) keeps its first characters and ends in
// [CutMarker], the whole within the cap; [Report.Cuts] lists them.
func (r *Report) WriteBlocks(w io.Writer, items []Item, o BlockOptions) error {
	var b strings.Builder
	for n, k := range r.Kept {
		b.Reset()
		if n > 0 {
			b.WriteByte('\n')
		}
		o.block(&b, k.Index, &items[k.Index])
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// block writes item index's block, newline-terminated, to b.
func (o BlockOptions) block(b *strings.Builder, index int, it *Item) *Cut {
	name := it.Source
	if name == "" {
		name = it.ID
	}
	b.WriteString(`<context name="`)
	attrEscaper.WriteString(b, name)
	b.WriteByte('"')
	if it.Description != "" {
		b.WriteString(` description="`)
		attrEscaper.WriteString(b, it.Description)
		b.WriteByte('"')
	}
	b.WriteString(">\n")
	text, cut := o.cutBlock(index, it)
	b.WriteString(text)
	b.WriteString("\n</context>\n")
	return cut
}

// RenderBlocks renders every item as [Report.WriteBlocks] renders the
// kept ones, a blank line between two, and lists the cuts (Index is the
// position in items): the blocks an agent puts after its system prompt.
func RenderBlocks(items []Item, o BlockOptions) (string, []Cut) {
	var b strings.Builder
	var cuts []Cut
	for i := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		if c := o.block(&b, i, &items[i]); c != nil {
			cuts = append(cuts, *c)
		}
	}
	return b.String(), cuts
}
