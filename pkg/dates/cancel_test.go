package dates

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// countingCtx is a context that is not done until its Err has been asked
// after times: it counts the checks Find makes, so a test can say
// how far a scan went without timing it.
type countingCtx struct {
	context.Context
	calls, after int
}

func (c *countingCtx) Err() error {
	c.calls++
	if c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// TestFindContextStops: Find checks its context every CheckEvery
// bytes and stops at the first check that finds it done: on 100 blocks
// of text, cancelled at the 4th check, it makes exactly 4 checks past the
// first (the one on entry), not 100.
func TestFindContextStops(t *testing.T) {
	text := strings.Repeat("we met yesterday and talk tomorrow. ", 100*CheckEvery/36)
	day := Date{Year: 2024, Month: 5, Day: 1}
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	tests := []struct {
		name  string
		after int
		calls int
		ok    bool
	}{
		{"done on entry", 0, 1, false},
		{"done at the 4th check", 4, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := &countingCtx{Context: parent, after: tt.after}
			spans, err := Find(ctx, text, day)
			if !errors.Is(err, context.Canceled) || spans != nil {
				t.Fatalf("Find = %d spans, %v; want none, context.Canceled", len(spans), err)
			}
			if ctx.calls != tt.calls {
				t.Errorf("%d checks, want %d", ctx.calls, tt.calls)
			}
			out, spans, err := Annotate(&countingCtx{Context: parent, after: tt.after}, text, day)
			if !errors.Is(err, context.Canceled) || out != "" || spans != nil {
				t.Errorf("Annotate = %d bytes, %d spans, %v; want nothing, context.Canceled", len(out), len(spans), err)
			}
		})
	}
	// Not cancelled: the same as Annotate, each check passing. The text
	// is 100 blocks long, so 1 check on entry plus one a block.
	ctx := &countingCtx{Context: parent, after: 1 << 30}
	got, spans, err := Annotate(ctx, text, day)
	want, wantSpans, _ := Annotate(context.Background(), text, day)
	if err != nil || got != want || len(spans) != len(wantSpans) {
		t.Errorf("Annotate differs from Annotate: %v, %d vs %d spans", err, len(spans), len(wantSpans))
	}
	if ctx.calls < 100 || ctx.calls > 101 {
		t.Errorf("%d checks over %d bytes, want about 100", ctx.calls, len(text))
	}
}
