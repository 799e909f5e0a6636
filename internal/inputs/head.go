package inputs

import (
	"errors"
	"io"
	"os"
	"slices"
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
// first bytes however often they are read. When R can also be read at an
// offset (an [*os.File]), nothing is copied as it is read: [HeadReader.Head]
// reads the head back from the file when asked, so reading many files
// costs no 1 MiB copy each.
type HeadReader struct {
	R    io.Reader
	head []byte
	// pos is the offset of the next byte read, from where R was at first;
	// base is R's offset at pos 0, known once Seek has been called.
	pos, base int64
	based     bool
	// at is R as an io.ReaderAt, once the first Read found one; reached
	// is how far the bytes read follow on from pos 0 with no gap, and
	// headAt how much of it head holds, read back from R.
	at              io.ReaderAt
	probed          bool
	reached, headAt int64
}

func (h *HeadReader) Read(p []byte) (int, error) {
	if !h.probed {
		h.probe()
	}
	n, err := h.R.Read(p)
	if h.at != nil {
		// As below: the head grows by reads that follow on from it.
		if h.pos <= h.reached {
			h.reached = max(h.reached, h.pos+int64(n))
		}
		h.pos += int64(n)
		return n, err
	}
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

// probe finds, before the first read, whether R can be read at an offset
// and where it stands, so that the head can be read back rather than kept.
func (h *HeadReader) probe() {
	h.probed = true
	at, ok := h.R.(io.ReaderAt)
	s, seeks := h.R.(io.Seeker)
	if !ok || !seeks || h.pos != 0 {
		return
	}
	if !h.based {
		cur, err := s.Seek(0, io.SeekCurrent)
		if err != nil {
			return
		}
		h.base, h.based = cur, true
	}
	h.at = at
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

// Head is what has been read so far, up to 1 MiB. The slice is the
// reader's: valid until the next Read or Head.
func (h *HeadReader) Head() []byte { return h.HeadUpTo(headMax) }

// HeadUpTo is the first n bytes of [HeadReader.Head] (all of it when it
// is shorter): a caller that needs only the first lines reads back no
// more of a file than it looks at.
func (h *HeadReader) HeadUpTo(n int) []byte {
	if h.at == nil {
		return h.head[:min(n, len(h.head))]
	}
	// Read back only what the head lacks since it was last asked for.
	if want := min(h.reached, headMax, int64(n)); want > h.headAt {
		from := len(h.head)
		h.head = slices.Grow(h.head, int(want)-from)[:want]
		k, _ := h.at.ReadAt(h.head[from:], h.base+int64(from))
		h.head, h.headAt = h.head[:from+k], int64(from+k)
	}
	return h.head[:min(n, len(h.head))]
}

// Stat passes on the underlying reader's Stat, when it has one (a file's
// size then shows through, for progress).
func (h *HeadReader) Stat() (os.FileInfo, error) {
	if s, ok := h.R.(interface{ Stat() (os.FileInfo, error) }); ok {
		return s.Stat()
	}
	return nil, errors.ErrUnsupported
}
