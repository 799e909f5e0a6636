package inputs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/harpe-dev/harpe/internal/termtext"
)

// Rules say how a command takes its inputs.
type Rules struct {
	// Once reads a file named more than once (or named and found in a
	// named directory) a single time ([Set.Twice] names it): counted
	// twice, it doubled the totals.
	Once bool
	// RefuseEmpty makes an input with nothing but white space in it
	// [ErrEmpty]: an error when named, passed over as "empty" under a
	// directory (a session the harness has just created).
	RefuseEmpty bool
	// Skip says why a file found under a directory that could not be
	// read, with err, is passed over (such as "not a transcript"); ""
	// when it is not, and err ends the reading.
	Skip func(err error) string
	// Stdin is standard input, read as StdinName. When it can seek and
	// StdinFromStart is set, it is read from its start each time (a
	// command that reads its inputs twice holds standard input in a
	// spool, internal/spool, to do so).
	Stdin          io.Reader
	StdinName      string
	StdinFromStart bool
	// Extensions are the file name endings a directory walk reads (see
	// [Expand]).
	Extensions []string
}

// Set is a command's inputs, expanded ([Expand]) and read in argument
// order, and the account of the files passed over.
type Set struct {
	Inputs []Input
	// Twice lists the inputs named more than once, read once
	// ([Rules.Once]), in order; [Stdin] for standard input.
	Twice []string
	// Missing are the named paths that do not exist, each an error naming
	// it, in argument order: the others are read all the same.
	Missing []error
	rules   Rules
	skips   []Skip
	read    int
}

// NewSet expands args under rules ([ExpandAll]: a named path that does
// not exist is in [Set.Missing], not an error). Its errors are [Expand]'s
// ([ErrStdinTwice] among them).
func NewSet(args []string, rules Rules) (*Set, error) {
	ins, skips, missing, err := ExpandAll(args, rules.Extensions)
	if err != nil {
		return nil, err
	}
	s := &Set{Inputs: ins, rules: rules, skips: skips, Missing: missing}
	if rules.Once {
		s.Inputs, s.Twice = Dedupe(ins)
	}
	return s, nil
}

// Read opens in and calls fn with the name to use in messages and its
// content, read under ctx: a file that could not be opened is an error
// naming it (a *[SkipError] for one found by a walk), and under
// [Rules.RefuseEmpty] one with nothing in it is [ErrEmpty].
func (s *Set) Read(ctx context.Context, in Input, fn func(name string, r io.Reader) error) error {
	if in.Path == Stdin {
		if rs, ok := s.rules.Stdin.(io.ReadSeeker); ok && s.rules.StdinFromStart {
			return s.readSeekable(ctx, rs, fn)
		}
		if !s.rules.RefuseEmpty {
			return fn(s.rules.StdinName, s.rules.Stdin)
		}
		br := bufio.NewReaderSize(s.rules.Stdin, 64<<10)
		if Blank(br) {
			return fmt.Errorf("%s: %w", s.rules.StdinName, ErrEmpty)
		}
		return fn(s.rules.StdinName, br)
	}
	f, err := Open(in)
	if err != nil {
		if skip := (*SkipError)(nil); errors.As(err, &skip) {
			return err
		}
		return fmt.Errorf("%s: %w", termtext.Escape(in.Path), pathErr(err))
	}
	defer f.Close()
	if s.rules.RefuseEmpty {
		// A file: seekable, so a reader can tell a large file of the
		// wrong kind without holding it.
		if blank, err := BlankFile(f); err != nil {
			return fmt.Errorf("%s: %w", in.Path, pathErr(err))
		} else if blank {
			return fmt.Errorf("%s: %w", in.Path, ErrEmpty)
		}
	}
	return fn(in.Path, File(ctx, f))
}

// readSeekable reads standard input from its start, when it can seek
// (see [Rules.StdinFromStart]).
func (s *Set) readSeekable(ctx context.Context, rs io.ReadSeeker, fn func(name string, r io.Reader) error) error {
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("%s: %w", s.rules.StdinName, err)
	}
	if s.rules.RefuseEmpty {
		blank, err := blankSeeker(rs)
		if err != nil {
			return fmt.Errorf("%s: %w", s.rules.StdinName, err)
		}
		if blank {
			return fmt.Errorf("%s: %w", s.rules.StdinName, ErrEmpty)
		}
	}
	return fn(s.rules.StdinName, ctxSeeker{ctxReader{ctx, rs}, rs})
}

// Settle takes the outcome of reading in: true when in is passed over
// (counted for [Set.Summary]) rather than an error; else err, which is
// nil for an input read.
func (s *Set) Settle(in Input, err error) (bool, error) {
	reason := ""
	var skip *SkipError
	switch {
	case errors.As(err, &skip):
		reason = skip.Reason
	case err != nil && in.FromDir && s.rules.RefuseEmpty && errors.Is(err, ErrEmpty):
		reason = "empty"
	case err != nil && in.FromDir && s.rules.Skip != nil:
		reason = s.rules.Skip(err)
	}
	if reason != "" {
		s.skips = append(s.skips, Skip{Path: in.Path, Reason: reason})
		return true, nil
	}
	if err == nil {
		s.read++
	}
	return false, err
}

// Each reads the inputs one after the other, in argument order
// ([Set.Read], [Set.Settle]); the first error that is no skip ends it.
func (s *Set) Each(ctx context.Context, fn func(name string, r io.Reader) error) error {
	for _, in := range s.Inputs {
		if _, err := s.Settle(in, s.Read(ctx, in, fn)); err != nil {
			return err
		}
	}
	return nil
}

// Count is the number of inputs read so far (passed over or failed not
// counted).
func (s *Set) Count() int { return s.read }

// Skips are the files passed over so far, and why, in the order found.
func (s *Set) Skips() []Skip { return s.skips }

// Summary is the line saying what was passed over ([Summary]), "" for
// nothing.
func (s *Set) Summary() string { return Summary(s.skips) }
