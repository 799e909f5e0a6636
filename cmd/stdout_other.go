//go:build !linux

package cmd

import "os"

// stdoutClosed reports whether standard output was closed when harpe
// started; only Linux can tell (see stdout_linux.go).
func stdoutClosed(*os.File) bool { return false }
