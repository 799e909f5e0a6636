// Package inputs turns command-line arguments into the files a command
// reads: files as given, directories walked recursively in sorted order,
// standard input as "-". It also runs a function over the files in
// parallel while keeping the results in argument order, and keeps the
// account of the files it passed over so a command can say why.
//
// It knows no transcript format: the file name endings a walk reads are
// the caller's.
package inputs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/internal/pool"
	"github.com/harpe-dev/harpe/internal/termtext"
)

// Stdin is the argument naming standard input.
const Stdin = "-"

// Input is one file to read.
type Input struct {
	// Path is the file's path, or [Stdin].
	Path string
	// FromDir is true when the file was found by walking a directory
	// rather than named: a file there that turns out not to be of the
	// kind wanted is skipped (see [Set.Skips]), not an error.
	FromDir bool
}

// Skip is a file passed over, and why.
type Skip struct {
	Path   string
	Reason string
}

// Expand returns the files named by args, in order: "-" and plain files as
// they are, each directory replaced by the files under it in lexical order
// of their paths (as [filepath.WalkDir] visits them). Under a directory,
// hidden files and directories (a name starting with ".") and files whose
// name ends in none of exts (the file name endings the caller reads, such
// as ".jsonl"; matched in lower case) are skipped and listed, with the
// reason "not a transcript file name". A path that
// cannot be read is an error naming it (see [ExpandAll] to go on past a
// named path that does not exist). No args means standard input.
func Expand(args, exts []string) ([]Input, []Skip, error) {
	ins, skips, missing, err := ExpandAll(args, exts)
	if err == nil && len(missing) > 0 {
		err = missing[0]
	}
	return ins, skips, err
}

// ExpandAll is [Expand], except that a named path that does not exist is
// not an error that ends it: it is returned in missing (an error naming
// it, in argument order) and the other paths are expanded, so that a
// command reports what it could read and then fails, as cat and grep do.
func ExpandAll(args, exts []string) ([]Input, []Skip, []error, error) {
	if len(args) == 0 {
		args = []string{Stdin}
	}
	if err := StdinOnce(args); err != nil {
		return nil, nil, nil, err
	}
	var out []Input
	var skips []Skip
	var missing []error
	for _, arg := range args {
		if arg == Stdin {
			out = append(out, Input{Path: Stdin})
			continue
		}
		fi, err := os.Stat(arg)
		if errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, fmt.Errorf("%s: %w", termtext.Escape(arg), pathErr(err)))
			continue
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", termtext.Escape(arg), pathErr(err))
		}
		if !fi.IsDir() {
			out = append(out, Input{Path: arg})
			continue
		}
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == arg {
					return fmt.Errorf("%s: %w", termtext.Escape(p), pathErr(err))
				}
				// One file or directory that cannot be read does not end
				// the walk: it is passed over and counted.
				if d != nil && d.IsDir() {
					skips = append(skips, Skip{Path: p + string(filepath.Separator), Reason: ReasonUnreadable})
					return filepath.SkipDir
				}
				skips = append(skips, Skip{Path: p, Reason: ReasonUnreadable})
				return nil
			}
			name := d.Name()
			if p != arg && strings.HasPrefix(name, ".") {
				if d.IsDir() {
					skips = append(skips, Skip{Path: p + string(filepath.Separator), Reason: "hidden"})
					return filepath.SkipDir
				}
				skips = append(skips, Skip{Path: p, Reason: "hidden"})
				return nil
			}
			if d.IsDir() {
				return nil
			}
			if reason := walkedKind(p, d); reason != "" {
				skips = append(skips, Skip{Path: p, Reason: reason})
				return nil
			}
			if !slices.ContainsFunc(exts, func(e string) bool { return strings.HasSuffix(strings.ToLower(name), e) }) {
				skips = append(skips, Skip{Path: p, Reason: "not a transcript file name"})
				return nil
			}
			out = append(out, Input{Path: p, FromDir: true})
			return nil
		})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	return out, skips, missing, nil
}

// Reasons a walk passes a file over, besides "hidden" and "not a
// transcript file name".
const (
	ReasonNotRegular = "not a regular file"
	ReasonDangling   = "dangling symlink"
	ReasonLinkedDir  = "symlink to a directory"
	ReasonUnreadable = "unreadable"
	reasonNotTheSame = "changed while read"
)

// walkedKind says why the file at p, found by a walk, is not read ("" when
// it is a regular file or a symlink to one). A symlink's target is looked
// at, never opened: a link to /dev/zero or to a FIFO is passed over
// without a read that would never end, a link to a directory is not
// followed (so the walk cannot loop).
func walkedKind(p string, d fs.DirEntry) string {
	if d.Type().IsRegular() {
		return ""
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return ReasonNotRegular
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ReasonDangling
	case err != nil:
		return ReasonUnreadable
	case fi.IsDir():
		return ReasonLinkedDir
	case !fi.Mode().IsRegular():
		return ReasonNotRegular
	}
	return ""
}

// SkipError is the error [Open] returns for a file found by a walk that
// is passed over rather than read: Reason says why, for [Skip].
type SkipError struct {
	Path   string
	Reason string
	Err    error
}

func (e *SkipError) Error() string { return e.Path + ": " + e.Reason }
func (e *SkipError) Unwrap() error { return e.Err }

// Open opens a file to read. For a file found by a walk, one that cannot
// be opened, or that is no longer a regular file once open, is a
// *[SkipError]; a named file's errors are returned as they are.
func Open(in Input) (*os.File, error) {
	f, err := os.Open(in.Path)
	if err != nil {
		if in.FromDir {
			return nil, &SkipError{Path: in.Path, Reason: ReasonUnreadable, Err: err}
		}
		return nil, err
	}
	if in.FromDir {
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			f.Close()
			return nil, &SkipError{Path: in.Path, Reason: ReasonNotRegular, Err: err}
		}
	}
	return f, nil
}

// StdinOnce returns an error when args name standard input ("-") more
// than once: it can be read only once, and a second read would silently
// find it empty.
func StdinOnce(args []string) error {
	seen := false
	for _, a := range args {
		if a == Stdin {
			if seen {
				return ErrStdinTwice
			}
			seen = true
		}
	}
	return nil
}

// ErrStdinTwice is [StdinOnce]'s error.
var ErrStdinTwice = errors.New(`-: standard input is named twice; it can be read only once`)

// pathErr drops the operation and path from an *fs.PathError, since
// callers name the file themselves.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Map runs fn on every input, up to workers at a time (GOMAXPROCS when
// workers ≤ 0), and returns the results in the order of ins. Standard
// input is handled first, in the calling goroutine. Every input is tried;
// the error returned is the first in input order. Once ctx is done the
// inputs not yet started get its error.
func Map[T any](ctx context.Context, ins []Input, workers int, fn func(in Input) (T, error)) ([]T, []error) {
	res := make([]T, len(ins))
	errs := make([]error, len(ins))
	for i, in := range ins {
		if in.Path == Stdin {
			res[i], errs[i] = fn(in)
		}
	}
	var jobs []int
	for i, in := range ins {
		if in.Path != Stdin {
			jobs = append(jobs, i)
		}
	}
	pool.Run(ctx, jobs, workers, func(i int) {
		res[i], errs[i] = fn(ins[i])
	}, func(i int) {
		errs[i] = ctx.Err()
	})
	return res, errs
}

// Summary renders skips as one line (paths escaped for a terminal, see
// [termtext.Escape]), most common reason first (ties by
// reason), naming up to three paths for each:
// "skipped 3 files: 2 not a transcript file name (a.txt, b.md), 1 hidden (.x)".
// It is "" when nothing was skipped.
func Summary(skips []Skip) string {
	if len(skips) == 0 {
		return ""
	}
	byReason := map[string][]string{}
	var reasons []string
	for _, s := range skips {
		if byReason[s.Reason] == nil {
			reasons = append(reasons, s.Reason)
		}
		byReason[s.Reason] = append(byReason[s.Reason], s.Path)
	}
	slices.SortFunc(reasons, func(a, b string) int {
		if d := len(byReason[b]) - len(byReason[a]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, r := range reasons {
		ps := byReason[r]
		shown := slices.Clone(ps[:min(len(ps), 3)])
		more := ""
		if len(ps) > 3 {
			more = fmt.Sprintf(", … %d more", len(ps)-3)
		}
		for i, p := range shown {
			shown[i] = termtext.Escape(p)
		}
		parts = append(parts, fmt.Sprintf("%d %s (%s%s)", len(ps), r, strings.Join(shown, ", "), more))
	}
	word := "files"
	if len(skips) == 1 {
		word = "file"
	}
	return fmt.Sprintf("skipped %d %s: %s", len(skips), word, strings.Join(parts, ", "))
}
