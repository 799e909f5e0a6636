package tokenize

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// countOf is c's count of s with a context that is never done, which
// gives no error.
func countOf(c Counter, s string) int {
	n, err := c.Count(context.Background(), s)
	if err != nil {
		panic(err)
	}
	return n
}

// TestCountCancelled: a cancelled context stops every built-in
// counter with its error and no count, a short text as well as one long
// piece (the merge looks every few thousand steps).
func TestCountCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	long := strings.Repeat("a", 1<<20) // one piece, merged by bigMerge
	for _, c := range []Counter{Estimate, O200kBase, Cl100kBase} {
		for _, text := range []string{"hi", long} {
			t.Run(c.Name(), func(t *testing.T) {
				n, err := c.Count(ctx, text)
				if !errors.Is(err, context.Canceled) || n != 0 {
					t.Errorf("%d bytes: got %d, %v; want 0, context.Canceled", len(text), n, err)
				}
			})
		}
	}
	// The merge itself gives up: bigMerge with a closed channel.
	done := make(chan struct{})
	close(done)
	O200kBase.setup()
	if w := O200kBase.bigMerge(long, done); w != nil {
		t.Error("bigMerge went on after done was closed")
	}
}

// TestCountLive: a context that can be cancelled, while it is not,
// changes nothing: the count is the estimate's rule or the encoding's
// Encode.
func TestCountLive(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	text := strings.Repeat("hello world, ", 1000) + strings.Repeat("a", 70000)
	for _, c := range []Counter{Estimate, O200kBase, Cl100kBase} {
		want := EstimateTokens(text)
		if e, ok := c.(*Encoding); ok {
			want = len(e.Encode(text))
		}
		if n, err := c.Count(ctx, text); err != nil || n != want {
			t.Errorf("%s: %d, %v; want %d", c.Name(), n, err, want)
		}
	}
}

// slowReader yields one byte of "a" at a time, forever.
type slowReader struct{}

func (slowReader) Read(p []byte) (int, error) {
	time.Sleep(time.Millisecond)
	p[0] = 'a'
	return 1, nil
}

// TestCountReaderContext: a stream that never ends stops soon after its
// context is cancelled, with the context's error.
func TestCountReaderContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, counts, err := CountReader(ctx, slowReader{}, []Counter{O200kBase}, StreamOptions{ChunkSize: 64})
	if !errors.Is(err, context.DeadlineExceeded) || counts != nil {
		t.Fatalf("got %v, %v; want no counts and context.DeadlineExceeded", counts, err)
	}
}
