package atomicout

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// failAfter accepts n bytes, then fails every write with ENOSPC.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, syscall.ENOSPC
	}
	f.n -= len(p)
	return len(p), nil
}

// TestWriteBuffered: a failed write to w is a *WriteError naming the
// path, however write wrapped it (or if it dropped it); write's own
// errors come back as they are; the buffer is flushed on success.
func TestWriteBuffered(t *testing.T) {
	big := strings.Repeat("x", 100<<10) // more than the buffer: written while write runs
	err := WriteBuffered(&failAfter{n: 10}, "out.json", func(bw *bufio.Writer) error {
		if _, err := bw.WriteString(big); err != nil {
			return fmt.Errorf("in.jsonl: %w", err)
		}
		return nil
	})
	var we *WriteError
	if !errors.As(err, &we) || we.Path != "out.json" || err.Error() != "out.json: no space left on device" {
		t.Errorf("failed write: got %v, want a *WriteError for out.json", err)
	}
	// A failure at the final flush, write itself succeeding.
	if err := WriteBuffered(&failAfter{n: 1}, "out.json", func(bw *bufio.Writer) error {
		_, err := bw.WriteString("ab")
		return err
	}); !errors.As(err, &we) {
		t.Errorf("failed flush: got %v, want a *WriteError", err)
	}
	own := errors.New("in.jsonl:3: bad item")
	if err := WriteBuffered(&failAfter{n: 1 << 20}, "out.json", func(*bufio.Writer) error { return own }); err != own {
		t.Errorf("write's error: got %v, want %v", err, own)
	}
	var sb strings.Builder
	if err := WriteBuffered(&sb, "-", func(bw *bufio.Writer) error {
		_, err := bw.WriteString("hello")
		return err
	}); err != nil || sb.String() != "hello" {
		t.Errorf("success: got %q, %v; want \"hello\", nil", sb.String(), err)
	}
}
