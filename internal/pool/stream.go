package pool

import (
	"context"
	"iter"
)

// Stream produces ahead of its consumer over a sequence of unknown
// length: it takes the values of seq one at a time, in order, calls
// produce(i, v) for the i-th on a goroutine of its own, and hands the
// results to emit in order. It takes the next value of seq only once a slot is free, so at
// most ahead values are taken (and produced) beyond the one emit waits
// for (ahead ≥ 1 reads one ahead while emit works). An error of seq is
// returned in its place, after the values before it were emitted; so is
// the first error of emit, and ctx's error once ctx is done, checked as
// each result comes in. Stream returns once every call begun has ended;
// seq is stopped (its yield returns false) when Stream ends early.
func Stream[T, U any](ctx context.Context, seq iter.Seq2[T, error], ahead int, produce func(i int, v T) U, emit func(i int, u U) error) error {
	type slot struct {
		u   U
		err error
		end bool
	}
	done := make(chan struct{})
	slots := make(chan chan slot, ahead)
	defer func() {
		close(done)
		for ch := range slots {
			<-ch
		}
	}()
	go func() {
		defer close(slots)
		next, stop := iter.Pull2(seq)
		defer stop()
		for i := 0; ; i++ {
			ch := make(chan slot, 1)
			select {
			case slots <- ch:
			case <-done:
				return
			}
			v, err, ok := next()
			switch {
			case !ok:
				ch <- slot{end: true}
				return
			case err != nil:
				ch <- slot{err: err}
				return
			}
			select {
			case <-done: // ended while the value was taken: not produced
				ch <- slot{end: true}
				return
			default:
			}
			go func() { ch <- slot{u: produce(i, v)} }()
		}
	}()
	for i := 0; ; i++ {
		ch, ok := <-slots
		if !ok {
			return nil
		}
		s := <-ch
		if s.end {
			return nil
		}
		if s.err != nil {
			return s.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(i, s.u); err != nil {
			return err
		}
	}
}
