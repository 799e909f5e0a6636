//go:build !unix

package cmd

import "os/exec"

// ownProcessGroup leaves cmd as it is: without Unix process groups only
// the shell itself is ended on cancel.
func ownProcessGroup(*exec.Cmd) {}

// killProcessGroup kills cmd's process.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// fileOwnedByUser is true where harpe cannot tell file owners apart: the
// user config directory is the user's own.
func fileOwnedByUser(string) bool { return true }
