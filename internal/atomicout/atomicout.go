// Package atomicout holds the file-level pieces of harpe's all-or-none
// outputs: a spool that keeps standard output in memory, then in an
// unlinked temporary file; the resolution of an output path to the file
// to write (symlinks followed, descriptor names kept); a temporary file
// beside a target; and the test of whether two paths name one file. The
// staging and commit of a run's outputs use them (cmd/output.go), and so
// does WriteBuffered, which tells a failed write from the writer's own errors.
package atomicout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/harpe-dev/harpe/internal/spool"
)

// SpoolMemory is how much of standard output a run keeps in memory before
// spooling the rest to an unlinked temporary file.
const SpoolMemory = 8 << 20

// CopyChunk is the unit in which a spool is copied to standard output; the
// run's context is checked between chunks.
const CopyChunk = 256 << 10

// Spool holds standard output (or a target written in place) until the
// run succeeds: in memory up to SpoolMemory, then in an unlinked
// temporary file ([spool.Spool]; in memory still where no temporary file
// can be made).
type Spool struct{ sp spool.Spool }

func (s *Spool) Write(p []byte) (int, error) {
	s.sp.Memory = SpoolMemory
	n, err := s.sp.Write(p)
	if err != nil {
		return n, fmt.Errorf("spooling output: %v", pathErr(err))
	}
	return n, nil
}

// CopyTo writes the spool to w in chunks, stopping when ctx is done.
func (s *Spool) CopyTo(ctx context.Context, w io.Writer) error {
	return s.sp.CopyTo(ctx, w, CopyChunk)
}

func (s *Spool) Close() {
	if s != nil {
		s.sp.Close()
	}
}

// maxSymlinks bounds symlink resolution, as the kernel's ELOOP does.
const maxSymlinks = 40

// StdoutAliases are the names of standard output itself.
var StdoutAliases = map[string]bool{"/dev/stdout": true, "/dev/fd/1": true, "/proc/self/fd/1": true}

// ResolveTarget follows symlinks in path's last element (a dangling link
// resolves to the file it would create) and returns the file to write.
// inPlace is set for a name of an open file descriptor (/dev/stderr,
// /dev/fd/N, /proc/self/fd/N): such a file is written through the name,
// never replaced.
func ResolveTarget(path string) (target string, inPlace bool, err error) {
	for range maxSymlinks {
		if IsDescriptorName(path) {
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

// SameFile reports whether paths a and b name one file: the same
// cleaned absolute path once symlinks are resolved (the file's own and its
// directory's), or, when both exist, the same file ([os.SameFile]: a hard
// link).
func SameFile(a, b string) bool {
	ka, kb := key(a), key(b)
	if ka == kb {
		return true
	}
	fa, errA := os.Stat(ka)
	fb, errB := os.Stat(kb)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// key is path made absolute and clean, its symlinks resolved (a
// file not yet made: its directory's).
func key(path string) string {
	if t, _, err := ResolveTarget(path); err == nil {
		path = t
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	dir := filepath.Dir(abs)
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	return filepath.Join(dir, filepath.Base(abs))
}

// IsDescriptorName reports whether path names an open file descriptor
// rather than a file (Linux's /proc/self/fd and /dev/fd).
func IsDescriptorName(path string) bool {
	path = filepath.Clean(path)
	return strings.HasPrefix(path, "/proc/self/fd/") || strings.HasPrefix(path, "/dev/fd/") ||
		strings.HasPrefix(path, "/proc/thread-self/fd/") || path == "/dev/stderr" || path == "/dev/stdin"
}

// tempSeq makes temporary file names unique within the process.
var tempSeq atomic.Uint64

// CreateTempBeside creates an empty file next to target. It is opened
// with mode 0666, so the umask applies as it would to target itself (the
// mode of an existing target is restored at commit).
func CreateTempBeside(target string) (*os.File, string, error) {
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

// pathErr drops the operation and path from an *fs.PathError, since
// callers name the file themselves.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
