// Package pool is harpe's one worker pool: it runs a function over a list
// of jobs, a bounded number at a time, and stops starting new ones once a
// context is done. Commands that read many files (count, the transcript
// commands through internal/inputs) use it; results stay in the caller's
// slices, indexed by job, so output order never depends on scheduling.
package pool

import (
	"context"
	"runtime"
	"sync"
)

// Indices returns the jobs 0, 1, …, n-1, for a [Run] over every element
// of a slice of n.
func Indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Run calls fn(j) for each j of jobs, up to workers at a time (GOMAXPROCS
// when workers ≤ 0), and returns once every call has returned. Jobs are
// handed out in order. Once ctx is done, the jobs not yet started get
// skip(j) instead (skip may be nil). fn and skip run on the pool's
// goroutines, never two for one job.
func Run(ctx context.Context, jobs []int, workers int, fn func(j int), skip func(j int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if ctx.Err() != nil {
					if skip != nil {
						skip(j)
					}
					continue
				}
				fn(j)
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
}

// A Feed runs a function over values sent to it while they are being
// produced (chunks of a stream), a bounded number at a time: the
// streaming form of [Run].
type Feed[T any] struct {
	ch chan T
	wg sync.WaitGroup
}

// NewFeed starts workers goroutines (GOMAXPROCS when workers ≤ 0) that
// call fn on each value sent, in no particular order.
func NewFeed[T any](workers int, fn func(T)) *Feed[T] {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	f := &Feed[T]{ch: make(chan T, workers)}
	for range workers {
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			for v := range f.ch {
				fn(v)
			}
		}()
	}
	return f
}

// Send hands v to a worker, waiting while every worker is busy and the
// feed's buffer full.
func (f *Feed[T]) Send(v T) { f.ch <- v }

// Close ends the feed and waits until every value sent has been handled.
func (f *Feed[T]) Close() {
	close(f.ch)
	f.wg.Wait()
}
