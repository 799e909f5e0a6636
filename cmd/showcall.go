package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/provider"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
	"github.com/harpe-dev/harpe/pkg/window/summary"
	"github.com/harpe-dev/harpe/report"
)

// Values of --show-as.
const (
	showAsOpenAI    = "openai"
	showAsAnthropic = "anthropic"
)

// checkShowCall checks the flags that go with --show-call before any
// input is read. strategyGiven is whether --strategy was set.
func checkShowCall(o *replayOptions, strategyGiven bool) error {
	if o.showAs != "" && o.showAs != showAsOpenAI && o.showAs != showAsAnthropic {
		return usageErrorf("--show-as: unknown value %q; valid: %s, %s", o.showAs, showAsOpenAI, showAsAnthropic)
	}
	if !o.showCallSet {
		// A --show-as from HARPE_* or harpe.yaml serves the runs that
		// show a call; on the others it is not a mistake.
		if o.showAs != "" && o.showAsGiven {
			return usageErrorf("--show-as: goes with --show-call N")
		}
		return nil
	}
	if !strategyGiven {
		// One strategy is shown; without --strategy, what full sends.
		o.strategies = []string{"full"}
	}
	switch {
	case o.showCall < 1:
		return usageErrorf("--show-call: calls are numbered from 1, got %d", o.showCall)
	case len(o.strategies) != 1:
		return usageErrorf("--show-call: shows the call of one strategy; --strategy names %d (%s)", len(o.strategies), strings.Join(o.strategies, ", "))
	case o.format == "jsonl":
		return usageErrorf("--show-call: --format table (readable) or json (the request body), not jsonl")
	case o.totalsOnly:
		return usageErrorf("--show-call and --totals: choose one")
	case o.plot != "":
		return usageErrorf("--show-call and --plot: choose one")
	}
	return nil
}

// showAsFor is the request shape for a transcript of format: Anthropic's
// for the formats that record Anthropic requests, else OpenAI's.
func showAsFor(format string) string {
	switch format {
	case "anthropic", "claude-code":
		return showAsAnthropic
	}
	return showAsOpenAI
}

// runShowCall writes what call --show-call N of the one session in the
// inputs (held, when read already) sent under the one strategy: readable
// text, or (--format json) the request body.
func (job *replayJob) runShowCall(a *app, runs []sessions.Session) error {
	if runs == nil {
		var err error
		if runs, err = job.heldSessions(a); err != nil {
			return err
		}
	}
	a.writeWarnings(job.warnings, false)
	if len(runs) != 1 {
		hint := "name one file"
		if len(runs) > 1 && runs[0].Transcript.ID != "" && runs[0].File == runs[len(runs)-1].File {
			hint = "pick one with --conversation ID"
		} else if len(runs) > 1 {
			// Say which: the first few files, as they were read.
			var names []string
			for i, r := range runs {
				if i == 3 {
					names = append(names, fmt.Sprintf("and %d more", len(runs)-3))
					break
				}
				names = append(names, escapeControl(r.File))
			}
			hint = "name one file: " + strings.Join(names, ", ")
		}
		return usageErrorf("--show-call: shows a call of one session; the input holds %d (%s)", len(runs), hint)
	}
	run := runs[0]
	ropts := job.ropts
	ropts.Progress = nil
	v, err := window.ShowCall(a.ctx, run.Transcript, job.strategies[0], ropts, job.showCall)
	if err != nil {
		if a.ctx.Err() != nil {
			return err
		}
		var de *summary.Error
		if errors.As(err, &de) {
			return usageErrorf("--distill-cmd: %s: %v", escapeControl(run.File), de.Err)
		}
		if errors.Is(err, window.ErrCallRange) {
			return usageErrorf("--show-call: %s: %v", escapeControl(run.File), err)
		}
		return inputError(fmt.Errorf("%s: %w", escapeControl(run.File), err))
	}
	var out bytes.Buffer
	if job.out.format == "json" {
		as := job.showAs
		if as == "" {
			as = showAsFor(string(run.Transcript.Format))
		}
		var body any = provider.OpenAIRequestFor(v.Rendered)
		if as == showAsAnthropic {
			body = provider.AnthropicRequestFor(v.Rendered)
		}
		if err := writeJSON(&out, body); err != nil {
			return err
		}
	} else if err := report.WriteReplayCallText(&out, v, run.File); err != nil {
		return err
	}
	return a.writeOutput(job.out.output, func(w io.Writer) error {
		_, err := w.Write(out.Bytes())
		return err
	})
}
