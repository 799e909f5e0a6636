package atomicout

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpool: standard output past SpoolMemory goes through a temporary
// file and comes back whole and in order.
func TestSpool(t *testing.T) {
	var s Spool
	line := []byte(strings.Repeat("x", 1023) + "\n")
	const n = SpoolMemory/1024 + 100 // ~100 KiB past memory
	for range n {
		if _, err := s.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if !s.sp.InFile() {
		t.Fatal("not spooled to a file")
	}
	var b strings.Builder
	if err := s.CopyTo(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if b.Len() != n*1024 || strings.Count(b.String(), "\n") != n {
		t.Errorf("got %d bytes, %d lines; want %d, %d", b.Len(), strings.Count(b.String(), "\n"), n*1024, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (&Spool{}).CopyTo(ctx, &b); !errors.Is(err, context.Canceled) {
		t.Errorf("copy after cancel: %v, want context.Canceled", err)
	}
}

// BenchmarkSpool writes 32 MiB of standard output through the spool (8
// MiB in memory, the rest in a temporary file) and copies it out, as every
// run with a large report does.
func BenchmarkSpool(b *testing.B) {
	line := make([]byte, 100)
	for i := range line {
		line[i] = 'x'
	}
	line[len(line)-1] = '\n'
	const total = 32 << 20
	b.SetBytes(total)
	for b.Loop() {
		var s Spool
		bw := bufio.NewWriterSize(&s, 64<<10)
		for n := 0; n < total; n += len(line) {
			bw.Write(line)
		}
		if err := bw.Flush(); err != nil {
			b.Fatal(err)
		}
		if err := s.CopyTo(context.Background(), io.Discard); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// TestSameFile: two spellings of one path, a symlink and its target, and
// two hard links are one file; two files are two. Worked out from the
// paths made here.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("a.json", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir("sub", 0o755)
	os.Symlink("a.json", "link.json")
	os.Link("a.json", "hard.json")
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"a.json", "./a.json", true},
		{"a.json", filepath.Join(dir, "a.json"), true},
		{"a.json", "sub/../a.json", true},
		{"link.json", "a.json", true},
		{"hard.json", "a.json", true},
		{"new.json", "./new.json", true}, // not made yet
		{"a.json", "sub/a.json", false},
		{"new.json", "a.json", false},
	} {
		if got := SameFile(tc.a, tc.b); got != tc.want {
			t.Errorf("SameFile(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSpoolNoTempDir: where no temporary file can be made, standard
// output past SpoolMemory stays in memory and comes back whole (it was
// an error, "spooling output: …", before).
func TestSpoolNoTempDir(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var s Spool
	defer s.Close()
	line := []byte(strings.Repeat("y", 1023) + "\n")
	const n = SpoolMemory/1024 + 10
	for range n {
		if _, err := s.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	if err := s.CopyTo(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if b.Len() != n*1024 {
		t.Errorf("got %d bytes, want %d", b.Len(), n*1024)
	}
}
