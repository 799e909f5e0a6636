package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/harpe-dev/harpe/internal/atomicout"
	"github.com/harpe-dev/harpe/internal/table"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// How a run's outputs reach their destinations.
//
// Commands never write standard output or a named file while they work:
// writeOutput and stageFile collect what they produce (standard output in a
// spool, each regular file in a temporary file beside it), and Run commits
// all of them only when the command succeeded and the run was not
// interrupted. So a run's outputs all land, or none does: a failed or
// interrupted run leaves no new file, the old files as they were, and
// nothing on standard output.

// outputs are the destinations staged during one run, committed together.
type outputs struct {
	mu     sync.Mutex
	stdout *atomicout.Spool
	files  []*staged
	// aborted is set once the process is being stopped; commit then
	// writes nothing more.
	aborted atomic.Bool
}

// staged is one named destination.
type staged struct {
	path   string // as the user wrote it, for messages
	target string // path with symlinks resolved: what is written
	// tmp is the temporary file beside target (regular or new targets);
	// nil for a target written in place (a device, a FIFO).
	tmp     *os.File
	tmpName string
	mode    fs.FileMode      // mode to give tmp: the old file's, or from the umask
	keep    bool             // chmod tmp to mode (an existing file)
	direct  *atomicout.Spool // content of a target written in place
	// appendTo opens a target written in place for appending: a name of
	// an open descriptor, which must not be truncated.
	appendTo bool
	// truncate marks a regular file written in place, because its
	// directory takes no temporary file.
	truncate bool
}

// writeOutput runs fn against the destination: standard output when path
// is "" or "-", else the file path. Nothing reaches the destination before
// the run commits (see outputs).
func (a *app) writeOutput(path string, fn func(w io.Writer) error) error {
	if path == "" || path == "-" {
		a.out.mu.Lock()
		if a.out.stdout == nil {
			a.out.stdout = &atomicout.Spool{}
		}
		sp := a.out.stdout
		a.out.mu.Unlock()
		return writeWatched(sp, stdinOrOut, a.tableOptions(false), fn)
	}
	return a.stageFile(path, fn)
}

// stageFile writes fn's output for path, to be committed with the run's
// other outputs. The target is path with its symlinks resolved; a regular
// or new target is written through a temporary file beside it (renamed
// over it at commit; an existing file keeps its mode, a new one gets the
// umask's), anything else (a device, a FIFO) is written in place at commit.
// Errors name path, never the temporary file.
func (a *app) stageFile(path string, fn func(w io.Writer) error) error {
	if atomicout.StdoutAliases[filepath.Clean(path)] {
		// The same open file as standard output, its offset and append
		// mode included.
		return a.writeOutput("-", fn)
	}
	target, inPlace, err := atomicout.ResolveTarget(path)
	if err != nil {
		return usageErrorf("%s: %v", path, err)
	}
	a.out.mu.Lock()
	for _, s := range a.out.files {
		if atomicout.SameFile(s.target, target) {
			a.out.mu.Unlock()
			return usageErrorf("%s: named twice as an output (as %s)", path, s.path)
		}
	}
	a.out.mu.Unlock()
	st := &staged{path: path, target: target}
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		return usageErrorf("%s: is a directory", path)
	case err == nil && (inPlace || !fi.Mode().IsRegular()):
		st.direct, st.appendTo = &atomicout.Spool{}, inPlace
		return a.stageDirect(st, fn)
	case err == nil:
		st.mode, st.keep = fi.Mode().Perm(), true
	case !errors.Is(err, fs.ErrNotExist):
		return usageErrorf("%s: %v", path, pathErr(err))
	}
	st.tmp, st.tmpName, err = atomicout.CreateTempBeside(target)
	if err != nil {
		if !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS) {
			return writeErrorf(path, err)
		}
		dir := filepath.Dir(target)
		if !st.keep {
			return writeErrorf(path, fmt.Errorf("cannot create it: directory %s is not writable (%v)", dir, err))
		}
		// The directory takes no new file, but the file itself may be
		// writable: write it in place at commit (not atomic: an
		// interrupted commit can leave it cut short).
		f, werr := os.OpenFile(target, os.O_WRONLY, 0)
		if werr != nil {
			return writeErrorf(path, fmt.Errorf("%v (and directory %s takes no temporary file: %v)", pathErr(werr), dir, err))
		}
		f.Close()
		st.direct, st.truncate = &atomicout.Spool{}, true
		return a.stageDirect(st, fn)
	}
	// Registered before writing, so an abort removes it.
	a.addStaged(st)
	if err := writeWatched(st.tmp, path, a.tableOptions(true), fn); err != nil {
		a.dropStaged(st)
		return err
	}
	return nil
}

// stageDirect collects fn's output for a target written in place at
// commit.
func (a *app) stageDirect(st *staged, fn func(w io.Writer) error) error {
	if err := writeWatched(st.direct, st.path, a.tableOptions(true), fn); err != nil {
		st.direct.Close()
		return err
	}
	a.addStaged(st)
	return nil
}

// watchWriter remembers the first error of the writer it wraps, so a
// failed write is told apart from the command's own errors however the
// command wraps it.
type watchWriter struct {
	w   io.Writer
	err error
}

func (ww *watchWriter) Write(p []byte) (int, error) {
	n, err := ww.w.Write(p)
	if err != nil && ww.err == nil {
		ww.err = err
	}
	return n, err
}

// writeWatched runs fn against w, buffered. A write to w that failed (a
// full disk) is reported as a write error naming path, whatever fn made of
// it (a reader's error naming its input, for one); fn's other errors pass
// through fileError.
func writeWatched(w io.Writer, path string, opts table.Options, fn func(w io.Writer) error) error {
	ww := &watchWriter{w: w}
	bw := bufio.NewWriterSize(ww, 64<<10)
	err := fn(tableWriter{bw, opts})
	if err == nil {
		err = bw.Flush()
	}
	if ww.err != nil {
		return writeErrorf(path, ww.err)
	}
	if err != nil {
		return fileError(path, err)
	}
	return nil
}

// fileError names path in a write error once: errors from fn that already
// carry an exit status pass through; an *os.PathError (which would name
// the temporary file) loses its path.
func fileError(path string, err error) error {
	var ee *exitError
	if errors.As(err, &ee) || errors.Is(err, context.Canceled) {
		return err
	}
	return usageErrorf("%s: %v", path, pathErr(err))
}

func (a *app) addStaged(s *staged) {
	a.out.mu.Lock()
	a.out.files = append(a.out.files, s)
	a.out.mu.Unlock()
}

// dropStaged forgets s and removes its temporary file.
func (a *app) dropStaged(s *staged) {
	a.out.mu.Lock()
	for i, x := range a.out.files {
		if x == s {
			a.out.files = append(a.out.files[:i], a.out.files[i+1:]...)
			break
		}
	}
	a.out.mu.Unlock()
	s.discard()
}

func (s *staged) discard() {
	if s.tmp != nil {
		s.tmp.Close()
		os.Remove(s.tmpName)
		s.tmp = nil
	}
	s.direct.Close()
}

// abort drops every staged output: temporary files are removed, old files
// stay as they were, and a commit in progress writes nothing more. Safe to
// call from another goroutine while the run is stopping; it waits at most
// a moment for a commit in progress (which then cleans up itself).
func (o *outputs) abort() {
	o.aborted.Store(true)
	for i := 0; !o.mu.TryLock(); i++ {
		if i == 20 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	defer o.mu.Unlock()
	for _, s := range o.files {
		s.discard()
	}
	o.files = nil
	o.stdout.Close()
	o.stdout = nil
}

// commit writes the staged outputs: first every temporary file is
// completed (flushed, given its mode, closed), then the targets written in
// place and standard output, and last the renames, which do not fail in
// practice. On an error or an interrupt before the renames nothing has
// been replaced.
func (o *outputs) commit(ctx context.Context, stdout io.Writer) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	fail := func(err error) error {
		for _, s := range o.files {
			s.discard()
		}
		o.files = nil
		o.stdout.Close()
		o.stdout = nil
		return err
	}
	for _, s := range o.files {
		if s.tmp == nil {
			continue
		}
		if s.keep {
			if err := s.tmp.Chmod(s.mode); err != nil {
				return fail(writeErrorf(s.path, err))
			}
		}
		if err := s.tmp.Sync(); err != nil {
			return fail(writeErrorf(s.path, err))
		}
		if err := s.tmp.Close(); err != nil {
			s.tmp = nil
			os.Remove(s.tmpName)
			return fail(writeErrorf(s.path, err))
		}
		s.tmp = nil
	}
	for _, s := range o.files {
		if s.direct == nil {
			continue
		}
		if err := ctx.Err(); err != nil || o.aborted.Load() {
			return fail(context.Canceled)
		}
		// Devices and FIFOs are not truncated (nothing to truncate);
		// descriptor names are appended to, as the shell opened them.
		flag := os.O_WRONLY
		if s.appendTo {
			flag |= os.O_APPEND
		}
		if s.truncate {
			flag |= os.O_TRUNC
		}
		f, err := os.OpenFile(s.target, flag, 0)
		if err != nil {
			return fail(writeErrorf(s.path, err))
		}
		err = s.direct.CopyTo(ctx, f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if errors.Is(err, context.Canceled) {
			return fail(err)
		}
		if err != nil {
			return fail(writeErrorf(s.path, err))
		}
	}
	if o.stdout != nil {
		if err := ctx.Err(); err != nil || o.aborted.Load() {
			return fail(context.Canceled)
		}
		if err := o.stdout.CopyTo(ctx, stdout); err != nil {
			if errors.Is(err, context.Canceled) {
				return fail(err)
			}
			return fail(writeErrorf(stdinOrOut, err))
		}
		o.stdout.Close()
		o.stdout = nil
	}
	// The renames take microseconds: once begun they are all made, even
	// if a signal comes meanwhile, so the files stay all or none.
	for _, s := range o.files {
		if s.tmpName == "" || s.direct != nil {
			continue
		}
		if err := os.Rename(s.tmpName, s.target); err != nil {
			os.Remove(s.tmpName)
			return fail(writeErrorf(s.path, err))
		}
		s.tmpName = ""
	}
	o.files = nil
	return nil
}

// stdinOrOut names standard output in write errors.
const stdinOrOut = "stdout"

// writeFileAtomic writes path at once through the same staging as
// stageFile (symlinks followed, mode kept, devices written in place),
// without waiting for the rest of the run. Prefer a.stageFile, which
// lands with the run's other outputs.
func writeFileAtomic(path string, fn func(w io.Writer) error) error {
	var o app
	if err := o.stageFile(path, fn); err != nil {
		return err
	}
	return o.out.commit(context.Background(), io.Discard)
}

// outputFlags are the flags that name a file a command writes.
var outputFlags = []string{"output", "report", "plot"}

// checkOutputsDistinct refuses, before any work, a run that names one
// file twice as an output under different spellings (-o ./a.json with
// --report a.json, an absolute and a relative path, ../dir/a.json, a
// symlink and its target): one of the two would be lost.
func checkOutputsDistinct(c *cobra.Command) error {
	var seen []string
	for _, name := range outputFlags {
		f := c.Flags().Lookup(name)
		if f == nil {
			continue
		}
		p := f.Value.String()
		if p == "" || p == "-" || atomicout.StdoutAliases[filepath.Clean(p)] {
			continue // standard output takes several outputs, in order
		}
		for _, prev := range seen {
			if atomicout.SameFile(prev, p) {
				return usageErrorf("%s: named twice as an output (as %s)", p, prev)
			}
		}
		seen = append(seen, p)
	}
	return nil
}
