package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

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
func readTranscriptFiles[T any](a *app, rules readRules, args []string, fn func(name string, r io.Reader) (T, error)) ([]T, error) {
	ins, err := expandInputs(a, rules, args)
	if err != nil {
		return nil, err
	}
	res, errs := inputs.Map(a.ctx, ins.ins, 0, func(in inputs.Input) (T, error) {
		return readInput(a, rules, in, fn)
	})
	if err := a.ctx.Err(); err != nil {
		return nil, err
	}
	var out []T
	for i, err := range errs {
		if skipped, err := ins.skip(i, err); skipped {
			continue
		} else if err != nil {
			return nil, err
		}
		out = append(out, res[i])
	}
	return out, ins.finish(a, rules, args, len(out))
}

// expanded are a command's inputs, expanded, and what was skipped.
type expanded struct {
	ins   []inputs.Input
	skips []inputs.Skip
}

// expandInputs expands args for readTranscriptFiles: directories walked,
// a file named twice once (with a note, under rules.once).
func expandInputs(a *app, rules readRules, args []string) (*expanded, error) {
	ins, skips, err := inputs.Expand(args)
	if errors.Is(err, inputs.ErrStdinTwice) {
		return nil, usageErrorf("%v", err)
	}
	if err != nil {
		return nil, inputError(err)
	}
	// A file named twice (or named and found in a named directory) is
	// read once, with a note: counted twice, it doubled the totals.
	if rules.once {
		var dups []string
		ins, dups = inputs.Dedupe(ins)
		for _, d := range dups {
			if d == inputs.Stdin {
				d = stdinName
			}
			if !rules.quiet {
				fmt.Fprintf(a.io.Err, "harpe: note: %s is named more than once; it is read once\n", escapeControl(d))
			}
		}
	}
	return &expanded{ins: ins, skips: skips}, nil
}

// readInput opens input in (standard input, or a file) and runs fn on it.
func readInput[T any](a *app, rules readRules, in inputs.Input, fn func(name string, r io.Reader) (T, error)) (T, error) {
	var zero T
	name, r := stdinName, io.Reader(a.io.In)
	var f *os.File
	if in.Path != inputs.Stdin {
		var err error
		if f, err = inputs.Open(in); err != nil {
			if skip := (*inputs.SkipError)(nil); errors.As(err, &skip) {
				return zero, err
			}
			return zero, inputError(fmt.Errorf("%s: %w", escapeControl(in.Path), pathErr(err)))
		}
		defer f.Close()
		name, r = in.Path, inputs.File(a.ctx, f)
	}
	if !rules.refuseEmpty {
		return fn(name, r)
	}
	if in.Path != inputs.Stdin {
		// A file: seekable, so the transcript reader can tell a large
		// JSON file that is no transcript without holding it.
		if blank, err := inputs.BlankFile(f); err != nil {
			return zero, inputError(fmt.Errorf("%s: %w", name, pathErr(err)))
		} else if blank {
			return zero, inputError(fmt.Errorf("%s: %w", name, inputs.ErrEmpty))
		}
		return fn(name, r)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	if inputs.Blank(br) {
		return zero, inputError(fmt.Errorf("%s: %w", name, inputs.ErrEmpty))
	}
	return fn(name, br)
}

// skip reports whether input i, read with err, is skipped (counted in
// the summary) rather than an error; err is returned when it is not.
func (e *expanded) skip(i int, err error) (bool, error) {
	if skip := (*inputs.SkipError)(nil); errors.As(err, &skip) {
		e.skips = append(e.skips, inputs.Skip{Path: e.ins[i].Path, Reason: skip.Reason})
		return true, nil
	}
	if err != nil && e.ins[i].FromDir && errors.Is(err, transcript.ErrUnknownFormat) {
		e.skips = append(e.skips, inputs.Skip{Path: e.ins[i].Path, Reason: "not a transcript"})
		return true, nil
	}
	if err != nil && e.ins[i].FromDir && errors.Is(err, inputs.ErrEmpty) {
		// A session the harness has just created: nothing to read yet.
		e.skips = append(e.skips, inputs.Skip{Path: e.ins[i].Path, Reason: "empty"})
		return true, nil
	}
	return false, err
}

// finish ends a read of n inputs: an error when nothing was read, else
// the skip summary on stderr (unless rules.quiet).
func (e *expanded) finish(a *app, rules readRules, args []string, n int) error {
	summary := inputs.Summary(e.skips)
	if n == 0 {
		if summary == "" {
			summary = "no files"
		}
		return inputError(fmt.Errorf("%s: no transcript to read (%s)", escapeControl(strings.Join(args, ", ")), summary))
	}
	if summary != "" && !rules.quiet {
		fmt.Fprintf(a.io.Err, "harpe: %s\n", summary)
	}
	return nil
}

// readRules say how a command takes its inputs: once reads a file named
// more than once a single time (with a note), so that totals count it
// once; refuseEmpty makes an input with nothing in it bad input (exit 2)
// when named, and skips it (counted on stderr) in a directory.
//
// quiet leaves out the notes (names given twice, what was skipped): for a
// first look at inputs that are read again for the report.
type readRules struct{ once, refuseEmpty, quiet bool }

// warnTranscripts writes the warnings of ts (a half-written last line
// skipped) to stderr, in order.
func (a *app) warnTranscripts(ts []*transcript.Transcript) {
	for _, t := range ts {
		for _, warning := range t.Warnings {
			fmt.Fprintf(a.io.Err, "harpe: warning: %s\n", escapeControl(warning.Error()))
		}
	}
}

// plainTextHint adds to err, the error reading name as context items, a
// line saying that the input looks like plain text (its first line does
// not open a JSON value) and what to do instead (advice, with FILE for
// the input's name); else it returns err.
func plainTextHint(name string, head []byte, err error, advice string) error {
	first, rerr := transcript.ReadHead(bufio.NewReader(bytes.NewReader(head)))
	first = bytes.TrimPrefix(bytes.TrimSpace(first), []byte(utf8BOM))
	if rerr != nil || len(first) == 0 || first[0] == '{' || first[0] == '[' || first[0] == '"' {
		return err
	}
	arg := name
	if name == stdinName {
		arg = "FILE"
	}
	return fmt.Errorf("%w\n  %s looks like plain text; harpe reads context items, one JSON object a line:\n  {\"id\": \"a\", \"content\": \"…\"}. %s", err, name, strings.ReplaceAll(advice, "FILE", arg))
}

// transcriptHint replaces err, the error reading name as context items,
// with one that says the input is a transcript and how to turn it into
// items, when head (its first bytes) is one; else it returns err.
func transcriptHint(name string, head []byte, err error) error {
	br := bufio.NewReader(bytes.NewReader(head))
	first, rerr := transcript.ReadHead(br)
	if rerr != nil || transcript.LooksLikeItems(first) {
		return err
	}
	format, derr := transcript.Detect(head)
	if derr != nil {
		return err
	}
	arg := name
	if name == stdinName {
		arg = "FILE"
	}
	return fmt.Errorf("%s: this is a transcript (%s), not context items; turn it into items first:\n  harpe transcript %s --emit items | harpe synthesize …", name, format, arg)
}
