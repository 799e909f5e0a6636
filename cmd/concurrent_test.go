package cmd

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentRuns: two Run calls at once, one drawing tables for a
// 200-column terminal and one for a pipe, give what each gives alone: no
// run reads state another run wrote (go test -race checks the rest).
func TestConcurrentRuns(t *testing.T) {
	items := `{"id":"a","content":"alpha beta gamma","priority":5}` + "\n" +
		`{"id":"b","content":"delta epsilon","priority":1}` + "\n"
	const longSpec = "full,windowed+clear:keep=5:trigger=1000:at-least=100,summarizing+mask:keep=3"
	runs := []struct {
		args []string
		cols int
	}{
		// The long spec wraps in 80 columns, not in 200.
		{[]string{"replay", "../testdata/replay/long.jsonl", "--strategy", longSpec, "--format", "table"}, 200},
		{[]string{"replay", "../testdata/replay/long.jsonl", "--strategy", longSpec, "--format", "table"}, 0},
		{[]string{"synthesize", "--budget", "5", "--format", "table"}, 120},
		{[]string{"count", "-t", "o200k_base"}, 0},
		{[]string{"transcript", "../testdata/transcripts/claude-code/session.jsonl", "--format", "table"}, 100},
		{[]string{"replay", "../testdata/replay/worked.jsonl", "--format", "table"}, 150},
		{[]string{"models", "--format", "table"}, 200},
	}
	run := func(i int) (string, string, int) {
		var out, errb bytes.Buffer
		streams := IO{In: strings.NewReader(items), Out: &out, Err: &errb, OutIsTerminal: runs[i].cols > 0, OutColumns: runs[i].cols}
		code := Run(context.Background(), runs[i].args, streams, func(string) (string, bool) { return "", false })
		return out.String(), errb.String(), code
	}
	type result struct {
		out, err string
		code     int
	}
	alone := make([]result, len(runs))
	for i := range runs {
		alone[i].out, alone[i].err, alone[i].code = run(i)
		if alone[i].code != 0 {
			t.Fatalf("%v: exit %d: %s", runs[i].args, alone[i].code, alone[i].err)
		}
	}
	if alone[0].out == alone[1].out {
		t.Fatalf("200 columns and a pipe drew the same table; the test shows nothing")
	}
	const rounds = 3
	var wg sync.WaitGroup
	together := make([]result, len(runs)*rounds)
	for k := range together {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &together[k]
			r.out, r.err, r.code = run(k % len(runs))
		}()
	}
	wg.Wait()
	for k, r := range together {
		if want := alone[k%len(runs)]; r != want {
			t.Errorf("%v at once: exit %d, stdout %q, stderr %q; alone: exit %d, stdout %q, stderr %q",
				runs[k%len(runs)].args, r.code, r.out, r.err, want.code, want.out, want.err)
		}
	}
}
