package cmd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
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

// spoolMemory is how much of standard output a run keeps in memory before
// spooling the rest to an unlinked temporary file.
const spoolMemory = 8 << 20

// copyChunk is the unit in which a spool is copied to standard output; the
// run's context is checked between chunks.
const copyChunk = 256 << 10

// outputs are the destinations staged during one run, committed together.
type outputs struct {
	mu     sync.Mutex
	stdout *spool
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
	mode    fs.FileMode // mode to give tmp: the old file's, or from the umask
	keep    bool        // chmod tmp to mode (an existing file)
	direct  *spool      // content of a target written in place
	// appendTo opens a target written in place for appending: a name of
	// an open descriptor, which must not be truncated.
	appendTo bool
}

// spool holds bytes in memory up to spoolMemory, then in an unlinked
// temporary file.
type spool struct {
	mem  bytes.Buffer
	file *os.File
	n    int64
}

func (s *spool) Write(p []byte) (int, error) {
	if s.file == nil && s.mem.Len()+len(p) <= spoolMemory {
		s.n += int64(len(p))
		return s.mem.Write(p)
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "harpe-spool-*")
		if err != nil {
			return 0, fmt.Errorf("spooling output: %v", pathErr(err))
		}
		// Unlinked at once: nothing is left behind however the run ends.
		os.Remove(f.Name())
		if _, err := f.Write(s.mem.Bytes()); err != nil {
			f.Close()
			return 0, fmt.Errorf("spooling output: %v", pathErr(err))
		}
		s.mem = bytes.Buffer{}
		s.file = f
	}
	n, err := s.file.Write(p)
	s.n += int64(n)
	if err != nil {
		return n, fmt.Errorf("spooling output: %v", pathErr(err))
	}
	return n, nil
}

// copyTo writes the spool to w in chunks, stopping when ctx is done.
func (s *spool) copyTo(ctx context.Context, w io.Writer) error {
	var r io.Reader = bytes.NewReader(s.mem.Bytes())
	if s.file != nil {
		if _, err := s.file.Seek(0, io.SeekStart); err != nil {
			return err
		}
		r = s.file
	}
	buf := make([]byte, copyChunk)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			if _, err := w.Write(buf[:n]); err != nil {
				return err
			}
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}

func (s *spool) close() {
	if s != nil && s.file != nil {
		s.file.Close()
		s.file = nil
	}
}

// writeOutput runs fn against the destination: standard output when path
// is "" or "-", else the file path. Nothing reaches the destination before
// the run commits (see outputs).
func (a *app) writeOutput(path string, fn func(w io.Writer) error) error {
	if path == "" || path == "-" {
		a.out.mu.Lock()
		if a.out.stdout == nil {
			a.out.stdout = &spool{}
		}
		sp := a.out.stdout
		a.out.mu.Unlock()
		bw := bufio.NewWriterSize(sp, 64<<10)
		if err := fn(tableWriter{bw, a.tableOptions(false)}); err != nil {
			return err
		}
		return bw.Flush()
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
	if stdoutAliases[filepath.Clean(path)] {
		// The same open file as standard output, its offset and append
		// mode included.
		return a.writeOutput("-", fn)
	}
	target, inPlace, err := resolveTarget(path)
	if err != nil {
		return usageErrorf("%s: %v", path, err)
	}
	a.out.mu.Lock()
	for _, s := range a.out.files {
		if s.target == target {
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
		st.direct, st.appendTo = &spool{}, inPlace
		if err := writeBuffered(st.direct, fn); err != nil {
			st.direct.close()
			return fileError(path, err)
		}
		a.addStaged(st)
		return nil
	case err == nil:
		st.mode, st.keep = fi.Mode().Perm(), true
	case !errors.Is(err, fs.ErrNotExist):
		return usageErrorf("%s: %v", path, pathErr(err))
	}
	st.tmp, st.tmpName, err = createTempBeside(target)
	if err != nil {
		return usageErrorf("%s: %v", path, err)
	}
	// Registered before writing, so an abort removes it.
	a.addStaged(st)
	bw := bufio.NewWriterSize(st.tmp, 64<<10)
	if err := fn(tableWriter{bw, a.tableOptions(true)}); err != nil {
		a.dropStaged(st)
		return fileError(path, err)
	}
	if err := bw.Flush(); err != nil {
		a.dropStaged(st)
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

func writeBuffered(w io.Writer, fn func(w io.Writer) error) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := fn(bw); err != nil {
		return err
	}
	return bw.Flush()
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
	s.direct.close()
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
	o.stdout.close()
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
		o.stdout.close()
		o.stdout = nil
		return err
	}
	for _, s := range o.files {
		if s.tmp == nil {
			continue
		}
		if s.keep {
			if err := s.tmp.Chmod(s.mode); err != nil {
				return fail(usageErrorf("%s: %v", s.path, pathErr(err)))
			}
		}
		if err := s.tmp.Sync(); err != nil {
			return fail(usageErrorf("%s: %v", s.path, pathErr(err)))
		}
		if err := s.tmp.Close(); err != nil {
			s.tmp = nil
			os.Remove(s.tmpName)
			return fail(usageErrorf("%s: %v", s.path, pathErr(err)))
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
		f, err := os.OpenFile(s.target, flag, 0)
		if err != nil {
			return fail(usageErrorf("%s: %v", s.path, pathErr(err)))
		}
		err = s.direct.copyTo(ctx, f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail(fileError(s.path, err))
		}
	}
	if o.stdout != nil {
		if err := ctx.Err(); err != nil || o.aborted.Load() {
			return fail(context.Canceled)
		}
		if err := o.stdout.copyTo(ctx, stdout); err != nil {
			if errors.Is(err, context.Canceled) {
				return fail(err)
			}
			return fail(usageErrorf("%s: %v", stdinOrOut, pathErr(err)))
		}
		o.stdout.close()
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
			return fail(usageErrorf("%s: %v", s.path, pathErr(err)))
		}
		s.tmpName = ""
	}
	o.files = nil
	return nil
}

// stdinOrOut names standard output in write errors.
const stdinOrOut = "stdout"

// maxSymlinks bounds symlink resolution, as the kernel's ELOOP does.
const maxSymlinks = 40

// stdoutAliases are the names of standard output itself.
var stdoutAliases = map[string]bool{"/dev/stdout": true, "/dev/fd/1": true, "/proc/self/fd/1": true}

// resolveTarget follows symlinks in path's last element (a dangling link
// resolves to the file it would create) and returns the file to write.
// inPlace is set for a name of an open file descriptor (/dev/stderr,
// /dev/fd/N, /proc/self/fd/N): such a file is written through the name,
// never replaced.
func resolveTarget(path string) (target string, inPlace bool, err error) {
	for range maxSymlinks {
		if isDescriptorName(path) {
			return path, true, nil
		}
		fi, err := os.Lstat(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				// The directory must exist for the file to be made.
				if _, derr := os.Stat(filepath.Dir(path)); derr != nil {
					return "", false, pathErr(derr)
				}
				return path, false, nil
			}
			return "", false, pathErr(err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, false, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", false, pathErr(err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", false, errors.New("too many levels of symbolic links")
}

// isDescriptorName reports whether path names an open file descriptor
// rather than a file (Linux's /proc/self/fd and /dev/fd).
func isDescriptorName(path string) bool {
	path = filepath.Clean(path)
	return strings.HasPrefix(path, "/proc/self/fd/") || strings.HasPrefix(path, "/dev/fd/") ||
		strings.HasPrefix(path, "/proc/thread-self/fd/") || path == "/dev/stderr" || path == "/dev/stdin"
}

// tempSeq makes temporary file names unique within the process.
var tempSeq atomic.Uint64

// createTempBeside creates an empty file next to target. It is opened
// with mode 0666, so the umask applies as it would to target itself (the
// mode of an existing target is restored at commit).
func createTempBeside(target string) (*os.File, string, error) {
	dir, base := filepath.Split(target)
	for range 100 {
		name := filepath.Join(dir, "."+base+".harpe-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(tempSeq.Add(1), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", pathErr(err)
		}
		return f, name, nil
	}
	return nil, "", errors.New("cannot create a temporary file beside it")
}

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
