package cmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Progress goes to stderr only when it is a terminal, and stdout is the
// same either way.
func TestCountProgress(t *testing.T) {
	dir := t.TempDir()
	var args []string
	for i := range 25 {
		p := filepath.Join(dir, fmt.Sprintf("f%02d.txt", i))
		if err := os.WriteFile(p, []byte(strings.Repeat("word ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	noEnv := func(string) (string, bool) { return "", false }
	var outs []string
	for _, term := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		code := Run(context.Background(), append([]string{"count", "--config", os.DevNull}, args...),
			IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr, ErrIsTerminal: term}, noEnv)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		outs = append(outs, stdout.String())
		if got := stderr.String(); term != strings.Contains(got, "harpe: counting: 25 of 25 files (100%)") {
			t.Errorf("terminal %v: stderr %q", term, got)
		}
	}
	if outs[0] != outs[1] {
		t.Errorf("stdout differs with a terminal:\n%s\n%s", outs[0], outs[1])
	}
	// File i is "word " i times: i pieces and 5i code points, so the
	// estimate is max(i, 5i/4) = 5i/4 (integer division); the total is
	// 0+1+2+3 + 5+6+7+8 + … + 25+26+27+28 + 30 = 366.
	var want strings.Builder
	for i, a := range args {
		fmt.Fprintf(&want, "%d %s\n", 5*i/4, a)
	}
	want.WriteString("366 total\n")
	if outs[0] != want.String() {
		t.Errorf("stdout:\n%s\nwant:\n%s", outs[0], want.String())
	}
}

// An interrupted run stops reading standard input and exits with 130.
func TestCountInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := Run(ctx, []string{"count", "--config", os.DevNull},
		IO{In: strings.NewReader(strings.Repeat("word ", 1000)), Out: &stdout, Err: &stderr}, func(string) (string, bool) { return "", false })
	if code != ExitInterrupted || stdout.Len() != 0 || stderr.String() != "harpe: interrupted\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
