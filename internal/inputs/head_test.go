package inputs

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadReaderSeek: over a file, a HeadReader seeks, and its head stays
// the file's first bytes however they are read again; over a reader that
// cannot seek, Seek fails with ErrUnsupported and reading goes on.
func TestHeadReaderSeek(t *testing.T) {
	content := strings.Repeat("0123456789", 10) // 100 bytes
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(10, io.SeekStart); err != nil { // the head starts where R is
		t.Fatal(err)
	}
	h := &HeadReader{R: f}
	buf := make([]byte, 30)
	read := func(n int) {
		t.Helper()
		if _, err := io.ReadFull(h, buf[:n]); err != nil {
			t.Fatal(err)
		}
	}
	read(20) // bytes 10–29
	if off, err := h.Seek(15, io.SeekStart); err != nil || off != 15 {
		t.Fatalf("Seek = %d, %v", off, err)
	}
	read(30) // bytes 15–44: 15 re-read, 15 past the head
	if off, err := h.Seek(0, io.SeekCurrent); err != nil || off != 45 {
		t.Fatalf("Seek(0, current) = %d, %v", off, err)
	}
	if want := content[10:45]; string(h.Head()) != want {
		t.Errorf("head %q, want %q", h.Head(), want)
	}
	if _, err := h.Seek(80, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	read(10) // bytes 80–89: not next to the head, not kept
	if want := content[10:45]; string(h.Head()) != want {
		t.Errorf("head after a read past a gap %q, want %q", h.Head(), want)
	}

	p := &HeadReader{R: bytes.NewBufferString("abc")}
	if _, err := p.Seek(0, io.SeekCurrent); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Seek over a buffer: %v, want ErrUnsupported", err)
	}
	if b, _ := io.ReadAll(p); string(b) != "abc" || string(p.Head()) != "abc" {
		t.Errorf("read %q, head %q, want abc", b, p.Head())
	}
}

// TestHeadReaderFileKeepsNoCopy: over a file, the HeadReader copies
// nothing as it reads (reading many files cost a 1 MiB copy each); its
// head, asked for, is read back from the file: the bytes read so far
// from the start, up to 1 MiB, read back only in the part not yet held.
func TestHeadReaderFileKeepsNoCopy(t *testing.T) {
	content := strings.Repeat("0123456789", 150_000) // 1.5 MB
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := &HeadReader{R: f}
	buf := make([]byte, 300_000)
	if _, err := io.ReadFull(h, buf); err != nil {
		t.Fatal(err)
	}
	if h.head != nil {
		t.Fatalf("%d bytes copied while reading, want none", len(h.head))
	}
	if got := h.HeadUpTo(1000); string(got) != content[:1000] || len(h.head) != 1000 {
		t.Fatalf("HeadUpTo(1000) = %d bytes, %d read back; want the first 1,000, no more", len(got), len(h.head))
	}
	if got := h.Head(); string(got) != content[:300_000] {
		t.Fatalf("head of %d bytes, want the first 300,000", len(got))
	}
	if _, err := io.ReadFull(h, buf); err != nil { // to 600,000
		t.Fatal(err)
	}
	if got := h.Head(); string(got) != content[:600_000] {
		t.Fatalf("head of %d bytes, want the first 600,000", len(got))
	}
	if _, err := io.Copy(io.Discard, h); err != nil {
		t.Fatal(err)
	}
	if got := h.Head(); string(got) != content[:headMax] {
		t.Fatalf("head of %d bytes, want the first MiB", len(got))
	}
}
