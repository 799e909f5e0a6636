package atomicout

import (
	"bufio"
	"io"
)

// WriteBuffered runs write against w through a buffer, flushed when
// write succeeds. A write to w that failed (a full disk) is returned as a
// *[WriteError] naming path, whatever write made of the error it got (a
// reader's error naming its input, say); write's other errors are
// returned as they are.
func WriteBuffered(w io.Writer, path string, write func(bw *bufio.Writer) error) error {
	ww := &watchWriter{w: w}
	bw := bufio.NewWriterSize(ww, 64<<10)
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if ww.err != nil {
		return &WriteError{Path: path, Err: ww.err}
	}
	return err
}

// watchWriter remembers the first error of the writer it wraps.
type watchWriter struct {
	w   io.Writer
	err error
}

func (ww *watchWriter) Write(p []byte) (int, error) {
	n, err := ww.w.Write(p)
	if err != nil && ww.err == nil {
		ww.err = err
	}
	return n, err
}
