package engine

import (
	"context"
	"io"
)

// utf8BOM is the byte order mark an input may begin with.
const utf8BOM = "\xef\xbb\xbf"

// Rewrite is [ItemReader.ReadEach] for a command that writes its input
// back with some items changed: every line goes to w in input order, a
// leading byte order mark and lines without an item as they came in, and
// each item's line replaced by what edit returns for it (l.Raw keeps it).
// Lines end in "\n". An error from edit, or from writing to w, stops the
// read and is returned as it is.
func (r *ItemReader) Rewrite(ctx context.Context, in io.Reader, name string, w io.Writer, edit func(l Line) ([]byte, error)) error {
	return r.ReadEach(ctx, in, name, func(l Line) error {
		if l.BOM {
			if _, err := io.WriteString(w, utf8BOM); err != nil {
				return err
			}
		}
		out := l.Raw
		if l.Item != nil {
			var err error
			if out, err = edit(l); err != nil {
				return err
			}
		}
		if _, err := w.Write(out); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	})
}
