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
//
// When R can seek (a file), so can the HeadReader: a reader that reads a
// file twice (the transcript reader streams a JSON document from the file
// rather than holding it) then still can, and the head stays the file's
// first bytes however often they are read.
type HeadReader struct {
	R    io.Reader
	head []byte
	// pos is the offset of the next byte read, from where R was at first;
	// base is R's offset at pos 0, known once Seek has been called.
	pos, base int64
	based     bool
}

func (h *HeadReader) Read(p []byte) (int, error) {
	n, err := h.R.Read(p)
	// Keep the bytes that extend the head: those past its end that follow
	// on from it (a read after a seek back re-reads what is kept).
	if end := h.pos + int64(n); h.pos <= int64(len(h.head)) && end > int64(len(h.head)) && len(h.head) < headMax {
		from := int64(len(h.head)) - h.pos
		to := min(end, headMax) - h.pos
		h.head = append(h.head, p[from:to]...)
	}
	h.pos += int64(n)
	return n, err
}

// Seek passes on to R when it is an [io.Seeker]; else it fails with
// [errors.ErrUnsupported].
func (h *HeadReader) Seek(off int64, whence int) (int64, error) {
	s, ok := h.R.(io.Seeker)
	if !ok {
		return 0, errors.ErrUnsupported
	}
	if !h.based {
		cur, err := s.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, err
		}
		h.base, h.based = cur-h.pos, true
	}
	abs, err := s.Seek(off, whence)
	if err != nil {
		return abs, err
	}
	h.pos = abs - h.base
	return abs, nil
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
