// Package spool holds bytes to be read again: in memory while they are
// few, in a temporary file once they are not. harpe holds standard output
// in one until a run succeeds (package atomicout), and an input that can
// be read only once (standard input, a pipe) to read it twice.
//
// A reader that must pass over its input twice (to find a document's
// frame, then to read its elements) needs to seek; a pipe cannot. Held
// in memory, a 164 MB request costs its size and the garbage collector's
// headroom over it, about twice the input. Past [Threshold] a Spool moves
// what it holds to a file in [os.TempDir] (mode 0600, removed from its
// directory as soon as it is made where the system allows it, so that
// nothing is left behind even after a crash), and the process holds a
// buffer, not the input. Where no temporary file can be made (a
// read-only system, the browser build) it stays in memory.
package spool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// Threshold is how many bytes of an input [Hold] keeps in memory before
// it moves them to a temporary file: below it, twice the input stays
// within the few MiB every run takes anyway.
const Threshold = 4 << 20

// DefaultMemory is how many bytes a [Spool] whose Memory is 0 keeps in
// memory.
const DefaultMemory = 8 << 20

// chunkSize is the size of the pieces held in memory: growing by pieces
// never copies what is held.
const chunkSize = 1 << 20

// Spool holds what is written to it, to be read again: an [io.Writer]
// that appends, and an [io.ReadSeeker] over what it holds. The zero
// value is empty and ready to use. Close it when done.
type Spool struct {
	// Memory is how many bytes it keeps in memory before it moves them
	// to a temporary file (0: [DefaultMemory]).
	Memory int64
	// Ctx, when set, ends the reads once done: a pass over what is held
	// then stops at its next read, as one over a file does.
	Ctx context.Context

	parts [][]byte // in memory, until file is set
	file  *os.File // the temporary file once the input passed Threshold
	name  string   // file's name while it is still to be removed
	size  int64
	off   int64
	// noFile is set once no temporary file could be made: all is kept
	// in memory from then on.
	noFile bool
}

// Hold reads r to its end, after head, and holds it all, the first
// memory bytes in memory ([Threshold] when 0). An error reading r, or
// writing the temporary file once the input is in one (a full disk), is
// returned; the temporary file is then gone.
func Hold(head []byte, r io.Reader, memory int64) (*Spool, error) {
	if memory == 0 {
		memory = Threshold
	}
	s := &Spool{Memory: memory}
	if _, err := s.Write(head); err != nil {
		s.Close()
		return nil, holdError(err)
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if _, werr := s.Write(buf[:n]); werr != nil {
			s.Close()
			return nil, holdError(werr)
		}
		if err == io.EOF {
			return s, nil
		}
		if err != nil {
			s.Close()
			return nil, err
		}
	}
}

// holdError is a failed write to the temporary file, said as what it is.
func holdError(err error) error {
	return fmt.Errorf("holding the input in a temporary file to read it twice (set TMPDIR to a directory with room): %w", err)
}

// Write adds p at the end. An error is the temporary file's (a full
// disk): what it holds is then incomplete.
func (s *Spool) Write(p []byte) (int, error) {
	memory := s.Memory
	if memory == 0 {
		memory = DefaultMemory
	}
	if s.file == nil && !s.noFile && s.size+int64(len(p)) > memory {
		s.spill()
	}
	if s.file != nil {
		n, err := s.file.WriteAt(p, s.size)
		s.size += int64(n)
		return n, err
	}
	written := len(p)
	for len(p) > 0 {
		if len(s.parts) == 0 || len(s.parts[len(s.parts)-1]) == chunkSize {
			s.parts = append(s.parts, make([]byte, 0, chunkSize))
		}
		last := &s.parts[len(s.parts)-1]
		n := copy((*last)[len(*last):chunkSize], p)
		*last = (*last)[:len(*last)+n]
		s.size += int64(n)
		p = p[n:]
	}
	return written, nil
}

// spill moves what is held to a temporary file, if one can be made;
// otherwise the input stays in memory.
func (s *Spool) spill() {
	f, err := os.CreateTemp("", "harpe-spool-*")
	if err != nil {
		s.noFile = true
		return
	}
	name := f.Name()
	if os.Remove(name) == nil {
		name = "" // gone from its directory; the data lives while f is open
	}
	var at int64
	for _, p := range s.parts {
		if _, err := f.WriteAt(p, at); err != nil {
			f.Close()
			if name != "" {
				os.Remove(name)
			}
			s.noFile = true
			return
		}
		at += int64(len(p))
	}
	s.file, s.name, s.parts = f, name, nil
}

// Size is the number of bytes held.
func (s *Spool) Size() int64 { return s.size }

// InFile reports whether the input moved to a temporary file.
func (s *Spool) InFile() bool { return s.file != nil }

func (s *Spool) Read(p []byte) (int, error) {
	if s.Ctx != nil && s.Ctx.Err() != nil {
		return 0, s.Ctx.Err()
	}
	if s.off >= s.size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	if s.file != nil {
		var err error
		n, err = s.file.ReadAt(p[:min(int64(len(p)), s.size-s.off)], s.off)
		if err != nil && err != io.EOF {
			return n, err
		}
	} else {
		k, at := int(s.off/chunkSize), int(s.off%chunkSize)
		n = copy(p, s.parts[k][at:])
	}
	s.off += int64(n)
	return n, nil
}

func (s *Spool) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		off += s.off
	case io.SeekEnd:
		off += s.size
	default:
		return 0, errors.New("spool: bad whence")
	}
	if off < 0 {
		return 0, errors.New("spool: negative position")
	}
	s.off = off
	return off, nil
}

// CopyTo writes what is held to w, chunk bytes at a time, stopping with
// ctx's error once ctx is done.
func (s *Spool) CopyTo(ctx context.Context, w io.Writer, chunk int) error {
	var buf []byte
	if s.file != nil {
		buf = make([]byte, chunk)
	}
	for at := int64(0); at < s.size; {
		if err := ctx.Err(); err != nil {
			return err
		}
		var p []byte
		if s.file != nil {
			n, err := s.file.ReadAt(buf[:min(int64(chunk), s.size-at)], at)
			if err != nil && err != io.EOF {
				return err
			}
			if n == 0 {
				return io.ErrUnexpectedEOF
			}
			p = buf[:n]
		} else {
			// in memory: written straight from it, no copy buffer
			k, off := int(at/chunkSize), int(at%chunkSize)
			p = s.parts[k][off:min(len(s.parts[k]), off+chunk)]
		}
		if _, err := w.Write(p); err != nil {
			return err
		}
		at += int64(len(p))
	}
	return ctx.Err()
}

// Close lets go of what is held and removes the temporary file.
func (s *Spool) Close() error {
	s.parts = nil
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	if s.name != "" {
		if rerr := os.Remove(s.name); err == nil {
			err = rerr
		}
	}
	s.file, s.name = nil, ""
	return err
}
