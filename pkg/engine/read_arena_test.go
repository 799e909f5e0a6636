package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Items' lines share blocks (ItemReader.keep): each Raw is capped at its
// own length, so appending to one cannot overwrite the next, and a line
// longer than a sixteenth of a block gets its own copy.
func TestRawLinesKeptApart(t *testing.T) {
	long := strings.Repeat("x", arenaBlock/16+1)
	in := `{"id":"a","content":"one"}` + "\n" + `{"id":"b","content":"two"}` + "\n" + `{"id":"c","content":"` + long + `"}` + "\n"
	items, _, err := ReadItems(strings.NewReader(in), "t", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 {
		t.Fatalf("%d items, want 3", len(items))
	}
	for _, it := range items[:2] { // the long line is an allocation of its own
		if cap(it.Raw) != len(it.Raw) {
			t.Errorf("%s: cap(Raw) = %d, len %d: an append would run into the next line", it.ID, cap(it.Raw), len(it.Raw))
		}
	}
	_ = append(items[0].Raw, "!!!!"...)
	if string(items[1].Raw) != `{"id":"b","content":"two"}` {
		t.Errorf("second line changed: %q", items[1].Raw)
	}
}

// Reading a file reserves room for its items once (ItemReader.reserve):
// 1,000 lines of 30 bytes give a capacity of at least 1,000 after reading.
func TestReserveFromFileSize(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		b.WriteString(fmt.Sprintf(`{"id":"i%03d","content":"c"}`, i) + "\n")
	}
	path := filepath.Join(t.TempDir(), "items.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewItemReader(ReadOptions{})
	if err := r.Read(context.Background(), f, "items.jsonl"); err != nil {
		t.Fatal(err)
	}
	if got := len(r.Items()); got != 1000 {
		t.Fatalf("%d items, want 1000", got)
	}
	// 256 lines read of 1,000 equal ones: 744 more, times 1.05 = 781, on
	// top of the 256 (append's own capacity, 256 or more): at least 1,037.
	if c := cap(r.items); c < 1037 {
		t.Errorf("cap = %d, want at least 1037 (reserved once)", c)
	}
}

// The id map is remade larger when the file's items are reserved
// (ItemReader.reserve, at line 256): an id first seen before then is still
// known after it.
func TestReserveKeepsIDs(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		b.WriteString(fmt.Sprintf(`{"id":"i%03d","content":"c"}`, i) + "\n")
	}
	b.WriteString(`{"id":"i007","content":"again"}` + "\n")
	path := filepath.Join(t.TempDir(), "items.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = NewItemReader(ReadOptions{}).Read(context.Background(), f, "items.jsonl")
	if err == nil || err.Error() != `items.jsonl:1001: duplicate id "i007" (first at items.jsonl:8)` {
		t.Errorf("err = %v, want the duplicate of line 8 at line 1001", err)
	}
}
