package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// onceFailing fails its n-th Write (counting from 0) and takes every
// other, as a pipe with a transient error would: a writer whose error is
// ignored once loses it for good.
type onceFailing struct {
	n, calls int
	buf      bytes.Buffer
}

var errOnce = errors.New("write failed")

func (o *onceFailing) Write(p []byte) (int, error) {
	defer func() { o.calls++ }()
	if o.calls == o.n {
		return 0, errOnce
	}
	return o.buf.Write(p)
}

// TestListingJSONWriteErrors: writeListingsJSON returns the error of every
// write it makes, whichever one fails. Before, the writes of the brackets,
// separators and messages ignored their errors.
func TestListingJSONWriteErrors(t *testing.T) {
	ls := []*transcript.Listing{
		mustList(t, &transcript.Transcript{Format: "sharegpt", ID: "a", Messages: []transcript.Message{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "yo"}}}),
		mustList(t, &transcript.Transcript{Format: "sharegpt", ID: "b"}),
	}
	// Count the writes of a whole run first.
	all := &onceFailing{n: -1}
	if err := writeListingsJSON(all, ls); err != nil {
		t.Fatal(err)
	}
	if all.calls < 10 {
		t.Fatalf("only %d writes: the test would prove little", all.calls)
	}
	for n := range all.calls {
		w := &onceFailing{n: n}
		if err := writeListingsJSON(w, ls); !errors.Is(err, errOnce) {
			t.Errorf("write %d of %d failed, writeListingsJSON returned %v", n, all.calls, err)
		}
	}
}

// TestExitCode: the status comes from the error's type alone, however it
// is wrapped.
func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"none", nil, ExitOK},
		{"usage", usageErrorf("--x: bad"), ExitUsage},
		{"bad input", inputError(errors.New("a.jsonl:1: bad")), ExitUsage},
		{"failed write, wrapped", fmt.Errorf("context: %w", writeErrorf("r.txt", syscall.ENOSPC)), ExitWrite},
		{"strict", strictError("refused"), ExitStrict},
		{"negative", errNegative, ExitNegative},
		{"interrupted", fmt.Errorf("reading: %w", context.Canceled), ExitInterrupted},
		{"cobra's own", errors.New(`unknown command "x"`), ExitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitCode(tc.err); got != tc.want {
				t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
			}
		})
	}
}
