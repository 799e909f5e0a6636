package cmd

import (
	"bufio"
	"context"
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/harpe-dev/harpe/internal/atomicout"
	"github.com/harpe-dev/harpe/internal/table"
)

// How a run's outputs reach their destinations: commands never write
// standard output or a named file while they work. writeOutput and
// stageFile stage what they produce in the run's atomicout.Set, and Run
// commits it only when the command succeeded and the run was not
// interrupted, so a run's outputs all land, or none does.

// writeOutput runs fn against the destination: standard output when path
// is "" or "-", else the file path. Nothing reaches the destination before
// the run commits.
func (a *app) writeOutput(path string, fn func(w io.Writer) error) error {
	if path == "" || path == "-" {
		return writeWatched(a.out.Stdout(), stdinOrOut, a.tableOptions(false), fn)
	}
	return a.stageFile(path, fn)
}

// stageFile writes fn's output for path, to be committed with the run's
// other outputs (see atomicout.Set.Stage). Errors name path, never the
// temporary file.
func (a *app) stageFile(path string, fn func(w io.Writer) error) error {
	if atomicout.IsStdout(path) {
		// The same open file as standard output, its offset and append
		// mode included.
		return a.writeOutput("-", fn)
	}
	return outputError(a.out.Stage(path, func(w io.Writer) error {
		return writeWatched(w, path, a.tableOptions(true), fn)
	}))
}

// outputError gives the staging's errors their exit status: a path that
// cannot be an output is bad usage, a failed write exit status 1.
func outputError(err error) error {
	var pe *atomicout.PathError
	var we *atomicout.WriteError
	switch {
	case errors.As(err, &pe):
		return &exitError{code: ExitUsage, err: pe}
	case errors.As(err, &we):
		return &exitError{code: ExitWrite, err: we}
	}
	return err
}

// writeWatched runs fn against w, buffered. A write to w that failed (a
// full disk) is reported as a write error naming path, whatever fn made of
// it (see atomicout.WriteBuffered); fn's other errors pass through
// fileError.
func writeWatched(w io.Writer, path string, opts table.Options, fn func(w io.Writer) error) error {
	err := atomicout.WriteBuffered(w, path, func(bw *bufio.Writer) error { return fn(tableWriter{bw, opts}) })
	if we, ok := err.(*atomicout.WriteError); ok {
		return outputError(we)
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

// stdinOrOut names standard output in write errors.
const stdinOrOut = atomicout.StdoutName

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
		if atomicout.IsStdout(p) {
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
