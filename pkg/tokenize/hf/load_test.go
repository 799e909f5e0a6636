//go:build unix

package hf

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// Load takes regular files of at most MaxFileSize bytes; anything else is
// refused before a byte is read, naming the file (issue 35 item 1).
func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: one byte past the limit, nothing written.
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fifo := filepath.Join(dir, "fifo.json")
	hasFIFO := syscall.Mkfifo(fifo, 0o600) == nil
	tests := []struct {
		path, want string
	}{
		{big, big + ": 67108865 bytes, larger than 64 MiB, the limit for this file"},
		{os.DevNull, os.DevNull + ": not a regular file (a device)"},
		{dir, dir + ": is a directory, not a file"},
		{filepath.Join(dir, "nosuch.json"), filepath.Join(dir, "nosuch.json") + ": no such file or directory"},
	}
	if hasFIFO {
		tests = append(tests, struct{ path, want string }{fifo, fifo + ": not a regular file (a FIFO)"})
	}
	for _, tt := range tests {
		_, err := Load(tt.path)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Load(%s) = %v, want %s", tt.path, err, tt.want)
		}
	}
}

// A preset's tokenizer.json is not read by NewCatalog: a missing file is
// an error only when the counter is asked for.
func TestCatalogDefersFiles(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nosuch.json")
	cat, err := tokenize.NewCatalog([]tokenize.Model{{Name: "gpt-4o", Tokenizer: missing}})
	if err != nil {
		t.Fatalf("NewCatalog read the file: %v", err)
	}
	m, err := cat.Lookup("gpt-4o")
	if err != nil || m.Tokenizer != missing {
		t.Fatalf("Lookup = %+v, %v", m, err)
	}
	if _, err := tokenize.New(m.Tokenizer); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("New(%s) = %v, want no such file", missing, err)
	}
	// A name no resolver handles is still checked at once.
	if _, err := tokenize.NewCatalog([]tokenize.Model{{Name: "x", ContextWindow: 1, Tokenizer: "p50k_base"}}); err == nil {
		t.Error("NewCatalog took an unknown tokenizer")
	}
}
