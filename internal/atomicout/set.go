package atomicout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A Set is the outputs of one run, staged while the run works and
// committed together when it succeeded: standard output in a [Spool],
// each regular (or new) file in a temporary file beside it, renamed over
// it at commit, and anything else (a device, a FIFO, a descriptor name)
// in a spool written in place at commit. So a run's outputs all land, or
// none does: a failed or interrupted run leaves no new file, the old files
// as they were, and nothing on standard output.
//
// Errors about a path that cannot be an output are [*PathError]; errors
// writing one are [*WriteError]. Both name the path as the caller wrote
// it, never a temporary file. The zero Set is ready to use.
type Set struct {
	mu     sync.Mutex
	stdout *Spool
	files  []*staged
	// aborted is set once the process is being stopped; Commit then
	// writes nothing more.
	aborted atomic.Bool
}

// StdoutName names standard output in write errors.
const StdoutName = "stdout"

// PathError reports a path that cannot be an output: it names a
// directory, its directory is missing, or it is named twice.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// WriteError reports an output that could not be written.
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string { return e.Path + ": " + pathErr(e.Err).Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// staged is one named destination.
type staged struct {
	path   string // as the user wrote it, for messages
	target string // path with symlinks resolved: what is written
	// tmp is the temporary file beside target (regular or new targets);
	// nil for a target written in place (a device, a FIFO).
	tmp     *os.File
	tmpName string
	mode    fs.FileMode // mode to give tmp: the old file's, or from the umask
	keep    bool        // chmod tmp to mode (an existing file)
	direct  *Spool      // content of a target written in place
	// appendTo opens a target written in place for appending: a name of
	// an open descriptor, which must not be truncated.
	appendTo bool
	// truncate marks a regular file written in place, because its
	// directory takes no temporary file.
	truncate bool
}

// Stdout is the spool that holds the run's standard output.
func (s *Set) Stdout() *Spool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stdout == nil {
		s.stdout = &Spool{}
	}
	return s.stdout
}

// IsStdout reports whether path names standard output itself ("", "-",
// /dev/stdout and its aliases).
func IsStdout(path string) bool {
	return path == "" || path == "-" || StdoutAliases[filepath.Clean(path)]
}

// Stage runs write against the staging of path, to be committed with the
// set's other outputs; a path that names standard output gets
// [Set.Stdout]. The target is path with its symlinks resolved; a regular
// or new target is written through a temporary file beside it (an
// existing file keeps its mode, a new one gets the umask's). Errors from
// write are returned as they are, and the staging is dropped.
func (s *Set) Stage(path string, write func(w io.Writer) error) error {
	if IsStdout(path) {
		return write(s.Stdout())
	}
	target, inPlace, err := ResolveTarget(path)
	if err != nil {
		return &PathError{path, err}
	}
	s.mu.Lock()
	for _, st := range s.files {
		if SameFile(st.target, target) {
			s.mu.Unlock()
			return &PathError{path, fmt.Errorf("named twice as an output (as %s)", st.path)}
		}
	}
	s.mu.Unlock()
	st := &staged{path: path, target: target}
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		return &PathError{path, errors.New("is a directory")}
	case err == nil && (inPlace || !fi.Mode().IsRegular()):
		st.direct, st.appendTo = &Spool{}, inPlace
		return s.stageDirect(st, write)
	case err == nil:
		st.mode, st.keep = fi.Mode().Perm(), true
	case !errors.Is(err, fs.ErrNotExist):
		return &PathError{path, pathErr(err)}
	}
	st.tmp, st.tmpName, err = CreateTempBeside(target)
	if err != nil {
		if !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS) {
			return &WriteError{path, err}
		}
		dir := filepath.Dir(target)
		if !st.keep {
			return &WriteError{path, fmt.Errorf("cannot create it: directory %s is not writable (%v)", dir, err)}
		}
		// The directory takes no new file, but the file itself may be
		// writable: write it in place at commit (not atomic: an
		// interrupted commit can leave it cut short).
		f, werr := os.OpenFile(target, os.O_WRONLY, 0)
		if werr != nil {
			return &WriteError{path, fmt.Errorf("%v (and directory %s takes no temporary file: %v)", pathErr(werr), dir, err)}
		}
		f.Close()
		st.direct, st.truncate = &Spool{}, true
		return s.stageDirect(st, write)
	}
	// Registered before writing, so an abort removes it.
	s.add(st)
	if err := write(st.tmp); err != nil {
		s.drop(st)
		return err
	}
	return nil
}

// stageDirect collects write's output for a target written in place at
// commit.
func (s *Set) stageDirect(st *staged, write func(w io.Writer) error) error {
	if err := write(st.direct); err != nil {
		st.direct.Close()
		return err
	}
	s.add(st)
	return nil
}

func (s *Set) add(st *staged) {
	s.mu.Lock()
	s.files = append(s.files, st)
	s.mu.Unlock()
}

// drop forgets st and removes its temporary file.
func (s *Set) drop(st *staged) {
	s.mu.Lock()
	for i, x := range s.files {
		if x == st {
			s.files = append(s.files[:i], s.files[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	st.discard()
}

func (st *staged) discard() {
	if st.tmp != nil {
		st.tmp.Close()
		os.Remove(st.tmpName)
		st.tmp = nil
	}
	st.direct.Close()
}

// Abort drops every staged output: temporary files are removed, old files
// stay as they were, and a commit in progress writes nothing more. Safe to
// call from another goroutine while the run is stopping; it waits at most
// a moment for a commit in progress (which then cleans up itself).
func (s *Set) Abort() {
	s.aborted.Store(true)
	for i := 0; !s.mu.TryLock(); i++ {
		if i == 20 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	defer s.mu.Unlock()
	s.discardAll()
}

// discardAll drops every staged output; s.mu is held.
func (s *Set) discardAll() {
	for _, st := range s.files {
		st.discard()
	}
	s.files = nil
	s.stdout.Close()
	s.stdout = nil
}

// Commit writes the staged outputs: first every temporary file is
// completed (given its mode, synced, closed), then the targets written in
// place and standard output (to stdout), and last the renames, which do
// not fail in practice. On an error or an interrupt (ctx done, or
// [Set.Abort]) before the renames nothing has been replaced, and the
// error is ctx's or [context.Canceled].
func (s *Set) Commit(ctx context.Context, stdout io.Writer) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.commit(ctx, stdout); err != nil {
		s.discardAll()
		return err
	}
	s.files = nil
	return nil
}

func (s *Set) commit(ctx context.Context, stdout io.Writer) error {
	if err := s.complete(); err != nil {
		return err
	}
	stopped := func() bool { return ctx.Err() != nil || s.aborted.Load() }
	for _, st := range s.files {
		if st.direct == nil {
			continue
		}
		if stopped() {
			return context.Canceled
		}
		if err := st.writeInPlace(ctx); err != nil {
			return err
		}
	}
	if s.stdout != nil {
		if stopped() {
			return context.Canceled
		}
		if err := s.stdout.CopyTo(ctx, stdout); err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			return &WriteError{StdoutName, err}
		}
		s.stdout.Close()
		s.stdout = nil
	}
	// The renames take microseconds: once begun they are all made, even
	// if a signal comes meanwhile, so the files stay all or none.
	for _, st := range s.files {
		if st.tmpName == "" || st.direct != nil {
			continue
		}
		if err := os.Rename(st.tmpName, st.target); err != nil {
			os.Remove(st.tmpName)
			return &WriteError{st.path, err}
		}
		st.tmpName = ""
	}
	return nil
}

// complete gives every temporary file its mode, syncs and closes it.
func (s *Set) complete() error {
	for _, st := range s.files {
		if st.tmp == nil {
			continue
		}
		if st.keep {
			if err := st.tmp.Chmod(st.mode); err != nil {
				return &WriteError{st.path, err}
			}
		}
		if err := st.tmp.Sync(); err != nil {
			return &WriteError{st.path, err}
		}
		if err := st.tmp.Close(); err != nil {
			st.tmp = nil
			os.Remove(st.tmpName)
			return &WriteError{st.path, err}
		}
		st.tmp = nil
	}
	return nil
}

// writeInPlace copies a target's spool into it. Devices and FIFOs are not
// truncated (nothing to truncate); descriptor names are appended to, as
// the shell opened them.
func (st *staged) writeInPlace(ctx context.Context) error {
	flag := os.O_WRONLY
	if st.appendTo {
		flag |= os.O_APPEND
	}
	if st.truncate {
		flag |= os.O_TRUNC
	}
	f, err := os.OpenFile(st.target, flag, 0)
	if err != nil {
		return &WriteError{st.path, err}
	}
	err = st.direct.CopyTo(ctx, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	if err != nil {
		return &WriteError{st.path, err}
	}
	return nil
}
