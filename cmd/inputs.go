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
	summary := inputs.Summary(skips)
	if len(out) == 0 {
		if summary == "" {
			summary = "no files"
		}
		return nil, inputError(fmt.Errorf("%s: no transcript to read (%s)", strings.Join(args, ", "), summary))
	}
	if summary != "" {
		fmt.Fprintf(a.io.Err, "harpe: %s\n", summary)
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

// headReader keeps the first bytes read through it (up to 1 MiB), so an
// input that fails as items can be looked at again.
type headReader struct {
	r    io.Reader
	head []byte
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := 1<<20 - len(h.head); room > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}

// transcriptHint replaces err, the error reading name as context items,
// with one that says the input is a transcript and how to turn it into
// items, when head (its first bytes) is one; else it returns err.
func transcriptHint(name string, head []byte, err error) error {
	br := bufio.NewReader(bytes.NewReader(head))
	first, rerr := firstNonBlankLine(br)
	if rerr != nil || looksLikeItem(first) {
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

// statter is a reader that can say what file it reads (*os.File).
type statter interface{ Stat() (os.FileInfo, error) }

// statOf is the file r reads, for readers that size their buffers by it.
func statOf(r io.Reader) (os.FileInfo, error) {
	if s, ok := r.(statter); ok {
		return s.Stat()
	}
	return nil, errors.ErrUnsupported
}

// Stat passes on the underlying file's (see statOf).
func (h *headReader) Stat() (os.FileInfo, error) { return statOf(h.r) }

// Stat passes on the underlying file's (see statOf).
func (c ctxReader) Stat() (os.FileInfo, error) { return statOf(c.r) }
