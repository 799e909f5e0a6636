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
