package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// manyLines is n item lines "{"id":"i<k>","content":"c<k>"}" for k = 1..n,
// with bad[k] in place of line k where given.
func manyLines(n int, bad map[int]string) string {
	var b strings.Builder
	for k := 1; k <= n; k++ {
		if s, ok := bad[k]; ok {
			b.WriteString(s + "\n")
			continue
		}
		fmt.Fprintf(&b, "{\"id\":\"i%d\",\"content\":\"c%d\"}\n", k, k)
	}
	return b.String()
}

// The first bad line by input order stops the read, whichever batch it is
// in and whatever bad lines come after it: 2,000 lines are eight batches
// of 256, line 700 is in the third.
func TestReadBatchesFirstError(t *testing.T) {
	input := manyLines(2000, map[int]string{
		700:  `{"id":"b"}`,
		900:  `{`,
		1999: `{"id":"i1","content":"dup"}`,
	})
	r := NewItemReader(ReadOptions{DefaultPriority: 10})
	err := r.Read(context.Background(), strings.NewReader(input), "in.jsonl")
	if err == nil || err.Error() != `in.jsonl:700: missing "content"` {
		t.Fatalf("err %v, want in.jsonl:700: missing \"content\"", err)
	}
	if n := len(r.Items()); n != 699 {
		t.Errorf("%d items kept before the bad line, want 699", n)
	}
	// A duplicate in a later batch names the first place of the id.
	input = manyLines(1500, map[int]string{1300: `{"id":"i3","content":"again"}`})
	_, _, err = ReadItems(strings.NewReader(input), "in.jsonl", ReadOptions{})
	if err == nil || err.Error() != `in.jsonl:1300: duplicate id "i3" (first at in.jsonl:3)` {
		t.Fatalf("err %v", err)
	}
}

// Under SkipInvalid every bad line is listed in order across batches, the
// default ids count lines over the inputs, and a line of more than
// batchBytes ends its batch early.
func TestReadBatchesSkipInvalid(t *testing.T) {
	big := `{"content":"` + strings.Repeat("x", batchBytes+10) + `"}`
	input := manyLines(1000, map[int]string{
		1:   "\xef\xbb\xbf" + `{"content":"first"}`,
		2:   "   ",
		257: `{"content":1}`,
		258: big,
		600: `{"id":"i600","content":"x","priority":-1}`,
		999: `{"id":"i4","content":"dup"}`,
	})
	r := NewItemReader(ReadOptions{DefaultPriority: 10, SkipInvalid: true})
	if err := r.Read(context.Background(), strings.NewReader(input), "a.jsonl"); err != nil {
		t.Fatal(err)
	}
	if err := r.Read(context.Background(), strings.NewReader(manyLines(1, map[int]string{1: `{"content":"next"}`})), "b.jsonl"); err != nil {
		t.Fatal(err)
	}
	want := []Skipped{
		{257, `a.jsonl:257: "content" must be a string, got 1`},
		{600, `a.jsonl:600: "priority" must be a whole number ≥ 0, got -1`},
		{999, `a.jsonl:999: duplicate id "i4" (first at a.jsonl:4)`},
	}
	if got := r.Skipped(); !reflect.DeepEqual(got, want) {
		t.Errorf("skipped %v\nwant %v", got, want)
	}
	items := r.Items()
	// 1,000 lines, one blank and three skipped, then b.jsonl's one.
	if len(items) != 997 {
		t.Fatalf("%d items, want 997", len(items))
	}
	checks := []struct {
		i       int
		id      string
		line    int
		content string
	}{
		{0, "L1", 1, "first"},
		{1, "i3", 3, "c3"},
		{253, "i255", 255, "c255"},
		{254, "i256", 256, "c256"},
		{255, "L258", 258, strings.Repeat("x", batchBytes+10)},
		{256, "i259", 259, "c259"},
		{995, "i1000", 1000, "c1000"},
		{996, "L1001", 1, "next"},
	}
	for _, c := range checks {
		it := items[c.i]
		if it.ID != c.id || it.Line != c.line || it.Content != c.content || it.Priority != 10 {
			t.Errorf("item %d: id %q line %d content %.20q priority %d, want %q %d %.20q 10",
				c.i, it.ID, it.Line, it.Content, it.Priority, c.id, c.line, c.content)
		}
	}
	if string(items[1].Raw) != `{"id":"i3","content":"c3"}` {
		t.Errorf("raw %q", items[1].Raw)
	}
}

// A bad line before a read error is reported first, as a line-by-line read
// would; with no bad line the read error comes, named.
func TestReadBatchesReadError(t *testing.T) {
	boom := errors.New("boom")
	input := manyLines(600, map[int]string{400: `{"content":"a",}`})
	r := NewItemReader(ReadOptions{})
	err := r.Read(context.Background(), io.MultiReader(strings.NewReader(input), iotestErr{boom}), "s")
	if err == nil || err.Error() != `s:400:16: invalid JSON: invalid character '}' looking for beginning of object key string` {
		t.Fatalf("err %v", err)
	}
	r = NewItemReader(ReadOptions{})
	err = r.Read(context.Background(), io.MultiReader(strings.NewReader(manyLines(600, nil)), iotestErr{boom}), "s")
	if !errors.Is(err, boom) || err.Error() != "s: boom" {
		t.Fatalf("err %v, want s: boom", err)
	}
	if len(r.Items()) != 600 {
		t.Errorf("%d items before the read error, want 600", len(r.Items()))
	}
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }

// Reading in batches and reading line by line (ReadEach with a fn) keep
// the same items and skip the same lines.
func TestReadBatchesMatchReadEach(t *testing.T) {
	bad := map[int]string{}
	for k := 5; k < 3000; k += 97 {
		bad[k] = []string{`{"content":2}`, ``, `{"id":"i1","content":"d"}`, `nope`, `{"content":"t","timestamp":"x"}`}[k%5]
	}
	input := manyLines(3000, bad)
	opts := ReadOptions{DefaultPriority: 7, SkipInvalid: true}
	batched := NewItemReader(opts)
	if err := batched.Read(context.Background(), strings.NewReader(input), "m"); err != nil {
		t.Fatal(err)
	}
	each := NewItemReader(opts)
	lines := 0
	if err := each.ReadEach(context.Background(), strings.NewReader(input), "m", func(Line) error { lines++; return nil }); err != nil {
		t.Fatal(err)
	}
	if lines != 3000 {
		t.Errorf("fn called %d times, want 3000", lines)
	}
	if !reflect.DeepEqual(batched.Items(), each.Items()) || !reflect.DeepEqual(batched.Skipped(), each.Skipped()) {
		t.Errorf("batched read: %d items, %d skipped; line by line: %d, %d",
			len(batched.Items()), len(batched.Skipped()), len(each.Items()), len(each.Skipped()))
	}
	// 31 bad lines (k = 5, 102, …, 2915), a sixth of them blank ones.
	if got := len(batched.Items()) + len(batched.Skipped()); got != 3000-6 {
		t.Errorf("%d items and skipped lines, want %d", got, 3000-6)
	}
}
