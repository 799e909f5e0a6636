// Command live drives harpe's live context (package live) through a saved
// transcript, as an agent loop would have fed it, and prints each call's
// window as a JSON line:
//
//	go run ./examples/live --strategy windowed:chars=40000+clear FILE
//	{"call":1,"strategy":"windowed:chars=40000+clear","messages":[[0,1]]}
//
// The indices are the transcript's, as harpe replay -f json lists them
// (runs of consecutive indices, [first,last]); where the format names
// its conversations (a file may hold several) each line adds
// "conversation". Several strategies may be given,
// comma-separated: each runs the whole file in turn. With --parts each
// line also lists the call's parts, as replay's "parts".
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// line is one call's window.
type line struct {
	Conversation string         `json:"conversation,omitempty"`
	Call         int            `json:"call"`
	Strategy     string         `json:"strategy"`
	Messages     window.Indices `json:"messages"`
	Parts        []window.Part  `json:"parts,omitempty"`
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("live", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := fs.String("strategy", "full", "`SPECS` of the strategies, comma-separated, as harpe replay --strategy takes them")
	parts := fs.Bool("parts", false, "add each call's parts (runs with how each was sent and its size), as harpe replay -f json lists them")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: live --strategy SPEC FILE")
		return 2
	}
	if err := drive(fs.Arg(0), strings.Split(*spec, ","), *parts, stdout); err != nil {
		fmt.Fprintln(stderr, "examples/live:", err)
		return 2
	}
	return 0
}

func drive(file string, specs []string, parts bool, stdout io.Writer) error {
	ctx := context.Background()
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	ts, err := transcript.Read(f, filepath.Base(file), "")
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	o := window.DefaultOptions()
	for _, spec := range specs {
		// A spec that does not parse, or cheapest (hindsight), is
		// refused before anything is written.
		if _, err := live.NewSpec(strings.TrimSpace(spec), live.Config{Options: o}); err != nil {
			return err
		}
	}
	// The whole output is built first: nothing half-written on an error.
	var out []byte
	for _, spec := range specs {
		spec = strings.TrimSpace(spec)
		for _, t := range ts {
			// The sizes a replay gives the messages (from the records
			// where the transcript has them).
			sizes, _, err := window.MessageSizes(ctx, t, window.ReplayOptions{Options: o})
			if err != nil {
				return err
			}
			c, err := live.NewSpec(spec, live.Config{Options: o})
			if err != nil {
				return err
			}
			conv := t.ID // "" when the format has one conversation a file
			err = live.Drive(ctx, t, c, live.DriveOptions{Sizes: sizes}, func(s *live.Snapshot) error {
				l := line{Conversation: conv, Call: s.Call, Strategy: spec, Messages: s.Window}
				if parts {
					l.Parts = s.Parts
				}
				b, err := json.Marshal(l)
				out = append(append(out, b...), '\n')
				return err
			})
			if err != nil {
				return fmt.Errorf("%s: %s: %w", file, spec, err)
			}
		}
	}
	_, err = stdout.Write(out)
	return err
}
