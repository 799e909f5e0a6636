package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/cmd"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/report"
)

// sampleFiles lists the samples.
func sampleFiles(t *testing.T) []string {
	var files []string
	for _, dir := range []string{"../../testdata/agent", "../../testdata/transcripts", "../../testdata/replay"} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			if ts, err := transcript.Read(f, filepath.Base(p), ""); err == nil && len(ts) > 0 && len(ts[0].Messages) > 0 {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestSameAsReplay: on every sample (every conversation of a file), the windows
// examples/live prints are those harpe replay FILE --strategy S -f json
// reports, call by call: the indices and the parts (how each run was
// sent, and its size).
func TestSameAsReplay(t *testing.T) {
	specs := []string{"full", "windowed", "windowed:chars=4000", "summarizing", "summarizing:high=2000:low=2000",
		"turn", "sliding:chars=3000", "clear", "clear:trigger=2000:keep=1:inputs", "mask", "mask:keep=2",
		"limit:bytes=500", "windowed:chars=40000+clear", "summarizing:high=2000+mask:keep=2"}
	files := sampleFiles(t)
	if len(files) < 30 {
		t.Fatalf("only %d samples", len(files))
	}
	t.Logf("%d samples × %d strategies", len(files), len(specs))
	noEnv := func(string) (string, bool) { return "", false }
	for _, file := range files {
		for _, spec := range specs {
			var got, errb bytes.Buffer
			if st := run([]string{"--parts", "--strategy", spec, file}, &got, &errb); st != 0 {
				t.Fatalf("%s %s: status %d: %s", file, spec, st, errb.String())
			}
			var want, werr bytes.Buffer
			if st := cmd.Run(context.Background(), []string{"replay", file, "--strategy", spec, "-f", "json"}, cmd.IO{Out: &want, Err: &werr}, noEnv); st != 0 {
				t.Fatalf("harpe replay %s --strategy %s: status %d: %s", file, spec, st, werr.String())
			}
			// One report per conversation, in file order.
			var calls []window.Call
			var convs []string
			dec := json.NewDecoder(&want)
			for dec.More() {
				var rep report.Replay
				if err := dec.Decode(&rep); err != nil {
					t.Fatalf("%s %s: %v", file, spec, err)
				}
				for _, c := range rep.Strategies[0].Calls {
					calls = append(calls, c)
					convs = append(convs, rep.Transcript.ID)
				}
			}
			sc := bufio.NewScanner(&got)
			sc.Buffer(nil, 1<<24)
			n := 0
			for sc.Scan() {
				var l line
				if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
					t.Fatal(err)
				}
				if n >= len(calls) || l.Call != calls[n].Call || l.Conversation != convs[n] || l.Strategy != spec ||
					!slices.Equal(l.Messages, calls[n].Messages) || !slices.Equal(l.Parts, calls[n].Parts) {
					t.Errorf("%s %s: line %d %s, replay call %+v", file, spec, n+1, sc.Bytes(), calls[min(n, len(calls)-1)].Messages)
					break
				}
				n++
			}
			if n != len(calls) && !t.Failed() {
				t.Errorf("%s %s: %d lines, replay %d calls", file, spec, n, len(calls))
			}
		}
	}
}

// TestBadInput: a file that is not a transcript is an error naming it,
// status 2, nothing written.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(p, []byte("{\"messages\": [1,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if st := run([]string{"--strategy", "full", p}, &out, &errb); st != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "bad.json") {
		t.Fatalf("status %d, stdout %q, stderr %q", st, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if st := run([]string{"--strategy", "cheapest", "../../testdata/transcripts/harpe/basic.jsonl"}, &out, &errb); st != 2 || out.Len() != 0 {
		t.Fatalf("cheapest: status %d, stdout %q, stderr %q", st, out.String(), errb.String())
	}
}
