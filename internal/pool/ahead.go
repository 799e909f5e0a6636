package pool

import "context"

// Ahead calls produce(i) for i from 0 to n-1, each on a goroutine of
// its own, and hands the results to emit in order, each as soon as it
// and those before it are done. produce runs at most ahead calls beyond
// the one emit waits for (ahead+1 at a time, ahead ≥ 0), so memory holds
// a few results, not all. The first error of emit ends the run and is
// returned; so is ctx's error once ctx is done, checked as each result
// comes in. Ahead returns once every call begun has ended; after it has
// decided to return, it begins at most one more.
func Ahead[T any](ctx context.Context, n, ahead int, produce func(i int) T, emit func(i int, v T) error) error {
	done := make(chan struct{})
	slots := make(chan chan T, ahead)
	defer func() {
		close(done)
		for ch := range slots {
			<-ch
		}
	}()
	go func() {
		defer close(slots)
		for i := range n {
			ch := make(chan T, 1)
			select {
			case slots <- ch:
			case <-done:
				return
			}
			select {
			case <-done: // the slot won a race with the end: not produced
				var zero T
				ch <- zero
				return
			default:
			}
			go func() { ch <- produce(i) }()
		}
	}()
	i := 0
	for ch := range slots {
		v := <-ch
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(i, v); err != nil {
			return err
		}
		i++
	}
	return nil
}
