//go:build unix

package config

import (
	"os"
	"syscall"
)

// ownedByUser reports whether path belongs to the user harpe runs as.
func ownedByUser(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
