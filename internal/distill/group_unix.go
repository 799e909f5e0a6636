//go:build unix

package distill

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts cmd in a new process group, so that everything
// it starts can be ended together, and makes cancelling cmd's context kill
// that group rather than the shell alone.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		killProcessGroup(cmd)
		return nil
	}
}

// killProcessGroup sends SIGKILL to cmd's process group; a group already
// gone is not an error.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.Process.Pid > 0 {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
