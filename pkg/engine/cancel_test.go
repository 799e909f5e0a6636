package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSynthesizeContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	items := []Item{{ID: "a", Content: strings.Repeat("word ", 1000)}, {ID: "b", Content: "b"}}
	for _, policy := range []string{"lowest_priority", "knapsack", "duo_attention"} {
		t.Run(policy, func(t *testing.T) {
			rep, err := Synthesize(ctx, items, Budget{Total: 100}, Options{Policy: policy})
			if !errors.Is(err, context.Canceled) || rep != nil {
				t.Fatalf("got %v, %v; want no report and context.Canceled", rep, err)
			}
		})
	}
	// An open context gives Synthesize's report.
	want, err := Synthesize(context.Background(), items, Budget{Total: 100}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Synthesize(context.Background(), items, Budget{Total: 100}, Options{})
	if err != nil || got.ConsumedTokens != want.ConsumedTokens || len(got.Kept) != len(want.Kept) {
		t.Fatalf("Synthesize %+v, %v; Synthesize %+v", got, err, want)
	}
}

// TestKnapsackStops: the exact solver on a table of 2^26 cells (two
// thousand candidates, capacity 32767) stops at once when done is closed.
func TestKnapsackStops(t *testing.T) {
	n := 2048
	sizes := make([]int, n)
	values := make([]float64, n)
	for i := range sizes {
		sizes[i] = 17 + i%100
		values[i] = float64(i%7) + 1
	}
	done := make(chan struct{})
	close(done)
	p := knapsackProblem{sizes: sizes, values: values, capacity: 1<<15 - 1, maxCells: MaxDPCells, done: done}
	start := time.Now()
	_, solver := p.solve()
	if solver != knapsackExactDP {
		t.Fatalf("solver %s, want the exact one", solver)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v after done was closed", d)
	}
}

// blockingReader gives one item line, then blocks until ctx is done.
type blockingReader struct {
	ctx  context.Context
	sent bool
}

func (r *blockingReader) Read(p []byte) (int, error) {
	if !r.sent {
		r.sent = true
		return copy(p, `{"content":"a"}`+"\n"), nil
	}
	<-r.ctx.Done()
	return 0, r.ctx.Err()
}

func TestReadCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rd := NewItemReader(ReadOptions{DefaultPriority: 10})
	if err := rd.Read(ctx, strings.NewReader(`{"content":"a"}`+"\n"), "x.jsonl"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Read: %v", err)
	}
	if len(rd.Items()) != 0 {
		t.Errorf("read %d items after the cancel", len(rd.Items()))
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	rd = NewItemReader(ReadOptions{DefaultPriority: 10})
	err := rd.Read(ctx, &blockingReader{ctx: ctx}, "x.jsonl")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Read on a blocked stream: %v", err)
	}
}
