package inputs

import (
	"errors"
	"io"
	"os"
)

// headMax is how much of an input a [HeadReader] keeps.
const headMax = 1 << 20

// HeadReader keeps the first bytes read through it (up to 1 MiB), so an
// input can be looked at again after a reader failed on it or to sniff
// what it held.
type HeadReader struct {
	R    io.Reader
	head []byte
}

func (h *HeadReader) Read(p []byte) (int, error) {
	n, err := h.R.Read(p)
	if room := headMax - len(h.head); room > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}

// Head is what has been read so far, up to 1 MiB.
func (h *HeadReader) Head() []byte { return h.head }

// Stat passes on the underlying reader's Stat, when it has one (a file's
// size then shows through, for progress).
func (h *HeadReader) Stat() (os.FileInfo, error) {
	if s, ok := h.R.(interface{ Stat() (os.FileInfo, error) }); ok {
		return s.Stat()
	}
	return nil, errors.ErrUnsupported
}
