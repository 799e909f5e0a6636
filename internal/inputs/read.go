package inputs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
)

// ErrEmpty is a named input with nothing but white space in it: no
// conversation, which a report of "0 messages" would hide.
var ErrEmpty = errors.New("empty: no conversation to read")

// Blank reports whether br holds only white space (or nothing), looking
// at no more than its buffer and consuming nothing.
func Blank(br *bufio.Reader) bool {
	for n := 1; ; n = min(2*n, br.Size()) {
		buf, err := br.Peek(n)
		if len(bytes.TrimLeft(buf, " \t\r\n")) > 0 {
			return false
		}
		if err != nil {
			return errors.Is(err, io.EOF)
		}
		if n == br.Size() {
			return false // a buffer of white space: let the reader judge
		}
	}
}

// BlankFile reports whether f holds only white space (or nothing),
// looking at no more than its first 64 KiB, and leaves f at its start.
func BlankFile(f *os.File) (bool, error) { return blankSeeker(f) }

// blankSeeker is [BlankFile] for any reader that can seek, at its start.
func blankSeeker(f io.ReadSeeker) (bool, error) {
	buf := make([]byte, 64<<10)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return false, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false, err
	}
	// A whole buffer of white space: let the reader judge.
	return n < len(buf) && len(bytes.TrimLeft(buf[:n], " \t\r\n")) == 0, nil
}

// Reader returns r read under ctx: once ctx is done, the next read fails
// with ctx.Err(), so a long read (a stream on standard input) stops. It
// passes on Stat when r has it (an *os.File), for readers that size their
// buffers by the file, and cannot seek.
func Reader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

// File is [Reader] for a file that can also seek, so that the transcript
// reader can tell a large JSON file that is no transcript without
// holding it.
func File(ctx context.Context, f *os.File) io.Reader { return ctxFile{ctxReader{ctx, f}, f} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// statter is a reader that can say what file it reads (*os.File).
type statter interface{ Stat() (os.FileInfo, error) }

// Stat passes on the underlying file's.
func (c ctxReader) Stat() (os.FileInfo, error) {
	if s, ok := c.r.(statter); ok {
		return s.Stat()
	}
	return nil, errors.ErrUnsupported
}

type ctxFile struct {
	ctxReader
	f *os.File
}

func (c ctxFile) Seek(off int64, whence int) (int64, error) { return c.f.Seek(off, whence) }

// ReadAt reads the file at an offset, as [HeadReader.Head] does to read a
// file's head back rather than keep a copy of it (at most 1 MiB: not
// checked against ctx).
func (c ctxFile) ReadAt(p []byte, off int64) (int, error) { return c.f.ReadAt(p, off) }

// ctxSeeker is [File] for any reader that can seek.
type ctxSeeker struct {
	ctxReader
	s io.Seeker
}

func (c ctxSeeker) Seek(off int64, whence int) (int64, error) { return c.s.Seek(off, whence) }
