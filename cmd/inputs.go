package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// readTranscriptFiles expands args (directories walked, see
// [inputs.Expand]) and runs fn on every file, in parallel, returning the
// results in argument order. fn gets the name to use in messages
// ("stdin" for standard input). A file found under a directory whose
// format cannot be told is skipped, not an error; the skipped files are
// summed up in one line on stderr. The first error in argument order is
// returned.
//
// This is the one input side of every transcript command (transcript,
// replay, fit, count --transcript).
func readTranscriptFiles[T any](a *app, args []string, fn func(name string, r io.Reader) (T, error)) ([]T, error) {
	ins, skips, err := inputs.Expand(args)
	if err != nil {
		return nil, inputError(err)
	}
	res, errs := inputs.Map(a.ctx, ins, 0, func(in inputs.Input) (T, error) {
		if in.Path == inputs.Stdin {
			return fn(stdinName, a.io.In)
		}
		f, err := os.Open(in.Path)
		if err != nil {
			var zero T
			return zero, inputError(fmt.Errorf("%s: %w", in.Path, pathErr(err)))
		}
		defer f.Close()
		return fn(in.Path, ctxReader{a.ctx, f})
	})
	if err := a.ctx.Err(); err != nil {
		return nil, err
	}
	var out []T
	for i, err := range errs {
		if err != nil && ins[i].FromDir && errors.Is(err, transcript.ErrUnknownFormat) {
			skips = append(skips, inputs.Skip{Path: ins[i].Path, Reason: "not a transcript"})
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, res[i])
	}
	if s := inputs.Summary(skips); s != "" {
		fmt.Fprintf(a.io.Err, "harpe: %s\n", s)
	}
	return out, nil
}

// warnTranscripts writes the warnings of ts (a half-written last line
// skipped) to stderr, in order.
func (a *app) warnTranscripts(ts []*transcript.Transcript) {
	for _, t := range ts {
		for _, warning := range t.Warnings {
			fmt.Fprintf(a.io.Err, "harpe: warning: %v\n", warning)
		}
	}
}
