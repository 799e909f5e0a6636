//go:build unix

package hf

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/harpe-dev/harpe/pkg/prices"
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

// A preset's tokenizer.json is not read by prices.NewCatalog: a missing
// file is an error only when the counter is asked for.
func TestCatalogDefersFiles(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nosuch.json")
	cat, err := prices.NewCatalog([]prices.Model{{Name: "gpt-4o", Tokenizer: missing}}, nil, nil)
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
	if _, err := prices.NewCatalog([]prices.Model{{Name: "x", ContextWindow: 1, Tokenizer: "p50k_base"}}, nil, nil); err == nil {
		t.Error("NewCatalog took an unknown tokenizer")
	}
}

// Hostile parts of a tokenizer.json are refused at load, each naming what
// and the limit (issue 35 item 6): each limit itself is accepted.
func TestBounds(t *testing.T) {
	base := func(norm, added, model string) string {
		return `{"added_tokens":` + added + `,"normalizer":` + norm + `,"pre_tokenizer":null,"model":` + model + `}`
	}
	wp := func(max int) string {
		return `{"type":"WordPiece","unk_token":"[UNK]","max_input_chars_per_word":` + strconv.Itoa(max) + `,"vocab":{"[UNK]":0,"a":1}}`
	}
	uni := func(piece string) string {
		return `{"type":"Unigram","unk_id":0,"vocab":[["a",0],["` + piece + `",-1]]}`
	}
	// n Sequence normalizers inside each other: 2n levels of object and
	// array, then the innermost object.
	nested := func(n int) string {
		return strings.Repeat(`{"type":"Sequence","normalizers":[`, n) + `{"type":"NFC"}` + strings.Repeat(`]}`, n)
	}
	added := func(n int) string { return `[{"id":5,"content":"` + strings.Repeat("x", n) + `"}]` }
	tests := []struct {
		name, file, want string
	}{
		{"wordpiece at the limit", base("null", "[]", wp(MaxWordChars)), ""},
		{"wordpiece past it", base("null", "[]", wp(MaxWordChars+1)), "max_input_chars_per_word 1001 is more than 1000"},
		{"unigram piece at the limit", base("null", "[]", uni(strings.Repeat("b", MaxPiece))), ""},
		{"unigram piece past it", base("null", "[]", uni(strings.Repeat("b", MaxPiece+1))), "a piece of 1025 bytes, more than 1024"},
		{"added token at the limit", base("null", added(MaxPiece), wp(100)), ""},
		{"added token past it", base("null", added(MaxPiece+1), wp(100)), "added token 5: 1025 bytes, more than 1024"},
		// 31 Sequences: 62 levels and the NFC's 63rd; 32: 65.
		{"nesting at the limit", base(nested(31), "[]", wp(100)), ""},
		{"nesting past it", base(nested(32), "[]", wp(100)), "normalizer: nested more than 64 levels deep"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.file), "x.json")
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}
