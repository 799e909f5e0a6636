package spool

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// input is n bytes that differ from place to place (a shifted read
// would show).
func input(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i*7%26)
	}
	return b
}

// TestSpool: what a Spool holds reads back byte for byte, whole and
// from any offset, in memory below the threshold and from a temporary
// file above it, with the head given before the reader's bytes.
func TestSpool(t *testing.T) {
	for _, tt := range []struct {
		name          string
		head, rest    int
		threshold     int64
		inFile        bool
		oneByteReader bool
	}{
		{"empty", 0, 0, 100, false, false},
		{"head only", 10, 0, 100, false, false},
		{"in memory", 10, 80, 100, false, false},
		{"at the threshold", 40, 60, 100, false, false},
		{"one past it", 40, 61, 100, true, false},
		{"head past it", 150, 10, 100, true, false},
		{"many chunks in memory", 0, 3*chunkSize + 5, 1 << 30, false, false},
		{"chunks then a file", 7, 3*chunkSize + 5, 2 * chunkSize, true, false},
		{"a byte a read", 3, 300, 100, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			all := input(tt.head + tt.rest)
			var r io.Reader = bytes.NewReader(all[tt.head:])
			if tt.oneByteReader {
				r = iotest.OneByteReader(r)
			}
			s, err := Hold(all[:tt.head], r, tt.threshold)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.InFile() != tt.inFile {
				t.Errorf("in a file: %v, want %v", s.InFile(), tt.inFile)
			}
			if s.Size() != int64(len(all)) {
				t.Errorf("size %d, want %d", s.Size(), len(all))
			}
			got, err := io.ReadAll(s)
			if err != nil || !bytes.Equal(got, all) {
				t.Errorf("read %d bytes (%v), want the %d given", len(got), err, len(all))
			}
			for _, off := range []int64{0, 1, int64(len(all) / 2), int64(len(all))} {
				if off > int64(len(all)) {
					continue
				}
				if _, err := s.Seek(off, io.SeekStart); err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(s)
				if err != nil || !bytes.Equal(got, all[off:]) {
					t.Errorf("from %d: %d bytes (%v), want %d", off, len(got), err, len(all)-int(off))
				}
			}
			for _, chunk := range []int{1, 7, chunkSize + 3} {
				if chunk < 100 && len(all) > 4096 {
					continue // a byte at a time over MiBs takes seconds
				}
				var b bytes.Buffer
				if err := s.CopyTo(context.Background(), &b, chunk); err != nil || !bytes.Equal(b.Bytes(), all) {
					t.Errorf("CopyTo by %d: %d bytes (%v), want %d", chunk, b.Len(), err, len(all))
				}
			}
		})
	}
}

// TestSpoolSeek: Seek from the current place and from the end, and the
// errors of a negative place and an unknown whence.
func TestSpoolSeek(t *testing.T) {
	s, err := Hold([]byte("0123456789"), strings.NewReader(""), 100)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tt := range []struct {
		off    int64
		whence int
		want   int64
		rest   string
	}{
		{3, io.SeekStart, 3, "3456789"},
		{2, io.SeekCurrent, 2, "23456789"}, // after the read above, from 0
		{-4, io.SeekEnd, 6, "6789"},
		{20, io.SeekStart, 20, ""},
	} {
		if _, err := s.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got, err := s.Seek(tt.off, tt.whence)
		if err != nil || got != tt.want {
			t.Errorf("Seek(%d, %d) = %d, %v; want %d", tt.off, tt.whence, got, err, tt.want)
		}
		rest, _ := io.ReadAll(s)
		if string(rest) != tt.rest {
			t.Errorf("after Seek(%d, %d): %q, want %q", tt.off, tt.whence, rest, tt.rest)
		}
	}
	if _, err := s.Seek(-1, io.SeekStart); err == nil {
		t.Error("Seek(-1) gave no error")
	}
	if _, err := s.Seek(0, 7); err == nil {
		t.Error("whence 7 gave no error")
	}
}

// TestSpoolFileGone: the temporary file leaves its directory as soon as
// it is made (or at Close, where the system keeps an open file's name),
// and Close can be called twice.
func TestSpoolFileGone(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	s, err := Hold(nil, bytes.NewReader(input(500)), 100)
	if err != nil {
		t.Fatal(err)
	}
	if !s.InFile() {
		t.Fatal("not in a file")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestSpoolNoTempDir: where no temporary file can be made, the input
// stays in memory, whole.
func TestSpoolNoTempDir(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	all := input(500)
	s, err := Hold(nil, bytes.NewReader(all), 100)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.InFile() {
		t.Error("in a file, want memory")
	}
	if got, _ := io.ReadAll(s); !bytes.Equal(got, all) {
		t.Errorf("read %d bytes, want %d", len(got), len(all))
	}
}

// TestSpoolReadError: an error from the reader is returned, and the
// temporary file made for what came before it is gone.
func TestSpoolReadError(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	boom := errors.New("boom")
	r := io.MultiReader(bytes.NewReader(input(500)), iotest.ErrReader(boom))
	if _, err := Hold(nil, r, 100); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestSpoolCtx: once Ctx is done, reads return its error.
func TestSpoolCtx(t *testing.T) {
	s, err := Hold(nil, strings.NewReader("abc"), 100)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.Ctx = ctx
	cancel()
	if _, err := s.Read(make([]byte, 3)); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
	var b bytes.Buffer
	if err := s.CopyTo(ctx, &b, 1); !errors.Is(err, context.Canceled) || b.Len() != 0 {
		t.Errorf("CopyTo after cancel: %q, %v; want nothing, context.Canceled", b.String(), err)
	}
}

// TestSpoolWrite: the zero Spool takes writes, keeps DefaultMemory in
// memory and the rest in a file, and reads back what was written, in
// order.
func TestSpoolWrite(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var s Spool
	defer s.Close()
	all := input(DefaultMemory + 1000)
	for p := all; len(p) > 0; {
		n := min(len(p), 4093)
		if k, err := s.Write(p[:n]); err != nil || k != n {
			t.Fatalf("Write: %d, %v", k, err)
		}
		if got := s.InFile(); got != (s.Size() > DefaultMemory) {
			t.Fatalf("at %d bytes: in a file %v", s.Size(), got)
		}
		p = p[n:]
	}
	got, err := io.ReadAll(&s)
	if err != nil || !bytes.Equal(got, all) {
		t.Errorf("read %d bytes (%v), want %d", len(got), err, len(all))
	}
}

// BenchmarkSpool: holding 64 MiB read from a pipe, in a temporary file.
func BenchmarkSpool(b *testing.B) {
	all := input(64 << 20)
	b.SetBytes(int64(len(all)))
	for b.Loop() {
		s, err := Hold(nil, bytes.NewReader(all), 0)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
