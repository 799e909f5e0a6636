package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/internal/spool"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
)

// readTranscriptFiles expands args (directories walked, see
// [inputs.Expand]) and runs fn on every file, in parallel, returning the
// results in argument order. fn gets the name to use in messages
// ("stdin" for standard input). A file found under a directory whose
// format cannot be told is skipped, not an error; the skipped files are
// summed up in one line on stderr. The first error in argument order is
// returned.
//
// This is the one input side of the transcript commands that read every
// file whole (transcript, fit, count --transcript); replay reads them
// in order, a session at a time (replayJob.sessions).
func readTranscriptFiles[T any](a *app, rules readRules, args []string, fn func(name string, r io.Reader) (T, error)) ([]T, error) {
	set, err := openInputs(a, rules, args)
	if err != nil {
		return nil, err
	}
	res, errs := inputs.Map(a.ctx, set.Inputs, 0, func(in inputs.Input) (v T, err error) {
		return v, set.Read(a.ctx, in, func(name string, r io.Reader) error {
			v, err = fn(name, r)
			return err
		})
	})
	if err := a.ctx.Err(); err != nil {
		return nil, err
	}
	var out []T
	for i, err := range errs {
		if skipped, err := set.Settle(set.Inputs[i], err); err != nil {
			return nil, inputError(err)
		} else if !skipped {
			out = append(out, res[i])
		}
	}
	return out, finishInputs(a, rules, args, set)
}

// openInputs expands args under rules: directories walked, a file named
// twice read once (with a note, under rules.once), a file under a
// directory that holds no transcript passed over.
func openInputs(a *app, rules readRules, args []string) (*inputs.Set, error) {
	stdin := a.io.In
	if a.stdinHeld != nil {
		stdin = a.stdinHeld
	}
	set, err := inputs.NewSet(args, inputs.Rules{Once: rules.once, RefuseEmpty: rules.refuseEmpty,
		Skip: notTranscript, Stdin: stdin, StdinName: stdinName, StdinFromStart: a.stdinHeld != nil,
		Extensions: transcript.Extensions()})
	if errors.Is(err, inputs.ErrStdinTwice) {
		return nil, usageErrorf("%v", err)
	}
	if err != nil {
		return nil, inputError(err)
	}
	// A named path that does not exist fails the run at its end (status
	// 1), as cat and grep do; the other paths are read and reported.
	for _, m := range set.Missing {
		a.missingPaths = true
		if !rules.quiet {
			a.sayMissing(m)
		}
	}
	// A file named twice (or named and found in a named directory) is
	// read once, with a note: counted twice, it doubled the totals.
	for _, d := range set.Twice {
		if d == inputs.Stdin {
			d = stdinName
		}
		if !rules.quiet {
			fmt.Fprintf(a.io.Err, "harpe: note: %s is named more than once; it is read once\n", escapeControl(d))
		}
	}
	return set, nil
}

// holdStdin holds standard input (spool.Hold: in memory up to a few MiB,
// then in a temporary file), so that the inputs can be read more than
// once: openInputs then reads it from its start each time.
// releaseStdin lets it go.
func (a *app) holdStdin() error {
	if a.stdinHeld != nil {
		return nil
	}
	sp, err := spool.Hold(nil, inputs.Reader(a.ctx, a.io.In), 0)
	if err != nil {
		if a.ctx.Err() != nil {
			return a.ctx.Err()
		}
		return inputError(fmt.Errorf("%s: %w", stdinName, err))
	}
	sp.Ctx = a.ctx
	a.stdinHeld = sp
	return nil
}

func (a *app) releaseStdin() {
	if a.stdinHeld != nil {
		a.stdinHeld.Close()
		a.stdinHeld = nil
	}
}

// notTranscript is why a file under a directory that failed with err is
// passed over: it is no transcript.
func notTranscript(err error) string {
	if errors.Is(err, transcript.ErrUnknownFormat) {
		return "not a transcript"
	}
	return ""
}

// finishInputs ends a read of set: an error when nothing was read, else
// the skip summary on stderr (unless rules.quiet).
func finishInputs(a *app, rules readRules, args []string, set *inputs.Set) error {
	a.leftOut.skips = append(a.leftOut.skips, set.Skips()...)
	summary := set.Summary()
	if set.Count() == 0 && summary == "" && len(set.Missing) > 0 && len(set.Inputs) == 0 {
		// Every path named is missing: each said once, then bad input.
		for _, m := range set.Missing {
			a.sayMissing(m)
		}
		return &exitError{code: ExitUsage}
	}
	if set.Count() == 0 {
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
// skipped) to stderr, in order, a kind said of many files counted after
// its third (writeWarnings).
func (a *app) warnTranscripts(ts []*transcript.Transcript) {
	var ws []*transcript.Error
	for _, t := range ts {
		ws = append(ws, t.Warnings...)
	}
	a.writeWarnings(ws, false)
}

// plainTextHint adds to err, the error reading name as context items, a
// line saying that the input looks like plain text (its first line does
// not open a JSON value) and what to do instead (advice, with FILE for
// the input's name); else it returns err.
func plainTextHint(name string, head []byte, err error, advice string) error {
	if enc, _ := jsonl.WideEncoding(head); enc != "" {
		return err // the error names the encoding: no plain text
	}
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

// leftOut is what the inputs of a run left out of its report: the files
// a walk passed over, and the broken lines skipped (see addLeftOut).
type leftOut struct {
	skips  []inputs.Skip
	broken int
	at     []string
}

// addLeftOut puts in the summary what its run left out: each file
// passed over with why, the broken lines skipped with where. A file
// passed over is named in the report, not only on stderr.
func (a *app) addLeftOut(sum *usage.Summary) {
	for _, s := range a.leftOut.skips {
		sum.Skipped = append(sum.Skipped, usage.SkippedFile{File: s.Path, Reason: s.Reason})
	}
	sum.BrokenLines, sum.BrokenAt = a.leftOut.broken, a.leftOut.at
}

// harnessPaths are the paths transcript and replay read when given none
// with standard input a terminal: every directory where a harness keeps
// its sessions ([transcript.FormatInfo.Dirs]) that exists here, each
// once, named on stderr. None is an error naming where it looked.
func (a *app) harnessPaths() ([]string, error) {
	home, _ := a.lookupEnv("HOME")
	var found, looked []string
	seen := map[string]bool{}
	for _, f := range transcript.FormatInfos() {
		for _, d := range f.Dirs {
			p := a.expandDir(d, home)
			if p == "" || seen[p] {
				continue
			}
			seen[p] = true
			looked = append(looked, p)
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				found = append(found, p)
			}
		}
	}
	if home != "" {
		// OpenCode keeps a session in many files; harpe reads its export.
		if fi, err := os.Stat(filepath.Join(home, ".local", "share", "opencode", "storage")); err == nil && fi.IsDir() {
			fmt.Fprintln(a.io.Err, "harpe: note: OpenCode's sessions (~/.local/share/opencode/storage) are not read as they are stored: export one with opencode export <session id> and name the file")
		}
	}
	if len(found) == 0 {
		return nil, usageErrorf("no path given, standard input is a terminal, and no harness directory is here (looked in %s); name files or directories, or pipe a transcript in", strings.Join(looked, ", "))
	}
	fmt.Fprintf(a.io.Err, "harpe: reading %s\n", escapeControl(strings.Join(found, ", ")))
	return found, nil
}

// expandDir expands a directory as [transcript.FormatInfo.Dirs] writes
// it: a leading "~" is home, a leading "$VAR" the variable's value; ""
// when that is unset or empty.
func (a *app) expandDir(d, home string) string {
	switch {
	case strings.HasPrefix(d, "~/"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, d[2:])
	case strings.HasPrefix(d, "$"):
		name, rest, _ := strings.Cut(d[1:], "/")
		v, ok := a.lookupEnv(name)
		if !ok || v == "" {
			return ""
		}
		return filepath.Join(v, rest)
	}
	return d
}

// sayMissing says on stderr that a named path does not exist, once
// though replay reads its inputs twice.
func (a *app) sayMissing(err error) {
	if a.missingSaid[err.Error()] {
		return
	}
	if a.missingSaid == nil {
		a.missingSaid = map[string]bool{}
	}
	a.missingSaid[err.Error()] = true
	fmt.Fprintf(a.io.Err, "harpe: %s\n", escapeControl(err.Error()))
}

// writeSkippedRecords lists on stderr (--verbose) each session's records
// that are not messages, by type in name order.
func (a *app) writeSkippedRecords(all []usage.SkippedRecords) {
	for _, s := range all {
		kinds := make([]string, 0, len(s.Kinds))
		for k := range s.Kinds {
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		for i, k := range kinds {
			kinds[i] = fmt.Sprintf("%s %d", k, s.Kinds[k])
		}
		name := s.File
		if s.Conversation != "" {
			name += " (" + s.Conversation + ")"
		}
		fmt.Fprintf(a.io.Err, "harpe: %s: records not messages: %s\n", escapeControl(name), escapeControl(strings.Join(kinds, ", ")))
	}
}
