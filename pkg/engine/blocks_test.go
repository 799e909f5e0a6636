package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCutBlock: the cap holds the kept text and the marker; K is the
// most that fits, worked by hand from the marker's length, 15 +
// digits(K) + len(" of N characters]").
func TestCutBlock(t *testing.T) {
	n := func(v int) *int { return &v }
	for _, tc := range []struct {
		name     string
		content  string
		it       Item
		o        BlockOptions
		kept     int // -1: not cut
		maxChars int
	}{
		// Under the default 4,000.
		{"short", "hello", Item{}, BlockOptions{}, -1, 0},
		// 5,000 characters, default cap: " of 5000 characters]" is 20,
		// K of four digits: 15 + 4 + 20 = 39, K = 3,961.
		{"default cap", strings.Repeat("x", 5000), Item{}, BlockOptions{}, 3961, 4000},
		// 1,000 characters, cap 45: two-digit K gives a marker of 37
		// (K = 8, one digit), one-digit K a marker of 36: K = 9.
		{"digits boundary", strings.Repeat("x", 1000), Item{}, BlockOptions{MaxChars: 45}, 9, 45},
		// Characters, not bytes: 50 "é" (100 bytes), cap 40; marker
		// " of 50 characters]" 18, one-digit K: 34, K = 6.
		{"code points", strings.Repeat("é", 50), Item{}, BlockOptions{MaxChars: 40}, 6, 40},
		// 60 bytes but 30 characters, cap 40: not cut.
		{"bytes over, characters under", strings.Repeat("é", 30), Item{}, BlockOptions{MaxChars: 40}, -1, 0},
		// The marker alone is longer than a cap of 10: K = 0.
		{"tiny cap", strings.Repeat("x", 100), Item{}, BlockOptions{MaxChars: 10}, 0, 10},
		{"no cap", strings.Repeat("x", 5000), Item{}, BlockOptions{MaxChars: -1}, -1, 0},
		// A source's cap replaces the default; 0 is none. 100
		// characters: " of 100 characters]" is 19, two-digit K 36, so
		// K = 50 - 36 = 14 (and 60 - 36 = 24 below).
		{"source cap", strings.Repeat("x", 100), Item{Source: "mem"}, BlockOptions{SourceMaxChars: map[string]int{"mem": 50}}, 14, 50},
		{"source uncapped", strings.Repeat("x", 5000), Item{Source: "mem"}, BlockOptions{SourceMaxChars: map[string]int{"mem": 0}}, -1, 0},
		// The item's own cap comes first.
		{"item cap", strings.Repeat("x", 100), Item{Source: "mem", MaxChars: n(60)}, BlockOptions{SourceMaxChars: map[string]int{"mem": 50}}, 24, 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := tc.it
			it.ID, it.Content = "a", tc.content
			text, cut := tc.o.cutBlock(0, &it)
			if tc.kept < 0 {
				if cut != nil || text != tc.content {
					t.Fatalf("cut %+v", cut)
				}
				return
			}
			total := utf8.RuneCountInString(tc.content)
			if cut == nil || cut.KeptChars != tc.kept || cut.Chars != total || cut.MaxChars != tc.maxChars {
				t.Fatalf("cut %+v, want %d kept of %d under %d", cut, tc.kept, total, tc.maxChars)
			}
			want := string([]rune(tc.content)[:tc.kept]) + CutMarker(tc.kept, total)
			if text != want {
				t.Fatalf("text %q, want %q", text, want)
			}
			if tc.kept > 0 && utf8.RuneCountInString(text) > tc.maxChars {
				t.Fatalf("%d characters over the cap %d", utf8.RuneCountInString(text), tc.maxChars)
			}
		})
	}
}

// TestReadBlockFields: "source", "description" and "max_chars" are read,
// and refused with the reader's wording when of the wrong type.
func TestReadBlockFields(t *testing.T) {
	items, _, err := ReadItems(strings.NewReader(`{"content":"c","source":"policy","description":"d \"q\"","max_chars":40}`+"\n"), "f", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	it := items[0]
	if it.Source != "policy" || it.Description != `d "q"` || it.MaxChars == nil || *it.MaxChars != 40 {
		t.Fatalf("item %+v", it)
	}
	for line, want := range map[string]string{
		`{"content":"c","max_chars":-1}`:            `f:1: "max_chars" must be a whole number ≥ 0, got -1`,
		`{"content":"c","source":3}`:                `f:1: "source" must be a string, got 3`,
		`{"content":"c","source":"a","source":"b"}`: `f:1: field "source" given twice`,
	} {
		_, _, err := ReadItems(strings.NewReader(line+"\n"), "f", ReadOptions{})
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", line, err, want)
		}
	}
}

// FuzzCutBlock: whatever the content and the cap, a block within its cap
// is sent whole; a longer one is its first K characters (K the most that
// fits) and the marker, within the cap unless the marker alone is not.
func FuzzCutBlock(f *testing.F) {
	f.Add("hello", 3)
	f.Add(strings.Repeat("é", 50), 40)
	f.Add(strings.Repeat("x", 1000), 45)
	f.Fuzz(func(t *testing.T, content string, limit int) {
		if !utf8.ValidString(content) || limit < -1 || limit > 1<<20 {
			return
		}
		o := BlockOptions{MaxChars: limit}
		it := Item{ID: "a", Content: content}
		text, cut := o.cutBlock(0, &it)
		n := utf8.RuneCountInString(content)
		capped := o.capOf(&it)
		if capped <= 0 || n <= capped {
			if cut != nil || text != content {
				t.Fatalf("cut under the cap: %+v", cut)
			}
			return
		}
		if cut == nil {
			t.Fatalf("%d characters over the cap %d, not cut", n, capped)
		}
		k := cut.KeptChars
		if text != string([]rune(content)[:k])+CutMarker(k, n) {
			t.Fatalf("text %q", text)
		}
		fits := func(k int) bool { return k+utf8.RuneCountInString(CutMarker(k, n)) <= capped }
		if k > 0 && !fits(k) || k < n && fits(k+1) {
			t.Fatalf("K = %d is not the most that fits under %d", k, capped)
		}
	})
}
