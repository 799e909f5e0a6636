package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// Exit statuses, the same for every subcommand.
const (
	ExitOK          = 0   // done
	ExitNegative    = 1   // a negative answer (fit: does not fit)
	ExitWrite       = 1   // an output could not be written
	ExitMissing     = 1   // a named path did not exist; the others were read
	ExitUsage       = 2   // bad usage or bad input
	ExitStrict      = 3   // refused by --strict
	ExitInterrupted = 130 // interrupted by a signal
)

// exitStatusHelp is appended to every command's help.
const exitStatusHelp = `
EXIT STATUS
  0    done
  1    an output could not be written, or a named file did not exist
       (the others were read; the message names it)
  2    bad usage or bad input (the message names the file and line)
  130  interrupted`

// exitError carries an exit status to Run, which prints err once as
// "harpe: <err>" (nothing when err is nil) and exits with code.
type exitError struct {
	code    int
	err     error
	usageOf *cobra.Command // when set, Run points at the command's --help
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// ExitCode is the status the process ends with.
func (e *exitError) ExitCode() int { return e.code }

// usageErrorf reports a flag or argument mistake (exit status 2). Name the
// flag first: usageErrorf("--policy: unknown policy %q; valid: %s", ...).
func usageErrorf(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// inputError reports bad input (exit status 2). The error text should
// already name the file and line, as the pkg readers do. A nil err stays nil.
func inputError(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{code: ExitUsage, err: err}
}

// strictError reports a result refused by --strict (exit status 3).
func strictError(format string, args ...any) error {
	return &exitError{code: ExitStrict, err: fmt.Errorf(format, args...)}
}

// errNegative is a quiet "no" (exit status 1), as grep's no-match.
var errNegative = &exitError{code: ExitNegative}
