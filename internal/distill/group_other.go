//go:build !unix

package distill

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
