package cmd

import (
	"os"
	"strconv"
	"strings"
)

// stdoutClosed reports whether f, the process's standard output, was
// closed when harpe started (`harpe count f >&-`). The Go runtime then
// opens /dev/null read-write in its place, so writes succeed and the
// report is lost without a word; a shell's `>/dev/null` opens it
// write-only. Only Linux shows an open file's flags (/proc/self/fdinfo).
func stdoutClosed(f *os.File) bool {
	fd := strconv.Itoa(int(f.Fd()))
	if target, err := os.Readlink("/proc/self/fd/" + fd); err != nil || target != os.DevNull {
		return false
	}
	info, err := os.ReadFile("/proc/self/fdinfo/" + fd)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(info), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err == nil && flags&0o3 == 0o2 // O_RDWR, as the runtime opens it
		}
	}
	return false
}
