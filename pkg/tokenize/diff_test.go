package tokenize

import (
	"flag"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// alphabet holds fragments that exercise every branch of the split
// patterns: each letter case class, marks, number classes, every kind of
// white space, apostrophes and contraction letters, slashes, CJK, emoji with
// joiners, and invalid UTF-8.
var alphabet = []string{
	"a", "b", "s", "t", "e", "r", "v", "l", "m", "d", "S", "T", "R", "E", "L", "D", "M", "V",
	"Hello", "HTTP", "world", "Camel", "XMLHttp", "don", "IT",
	"0", "1", "9", "123456", "½", "Ⅻ", "٣", "²",
	" ", " ", " ", "  ", "\t", "\n", "\r\n", "\r", "\v", "\f", "\u00a0", "\u3000", "\u2028", "\u0085", "\u200b",
	"'", "'s", "'S", "'re", "'LL", "'d", "'ve", "'m", "'t", "’",
	".", ",", "!", "?", "/", "//", "-", "_", "(", ")", "{", "}", "\"", ":", ";", "#", "@", "$",
	"\u0301", "\u0308", "\u0903", "\u20dd", "é", "ñ", "ß", "ǅ", "ʰ", "ª", "İ", "ſ",
	"中", "文", "日本", "の", "カ", "한", "ㄱ", "ก", "ع", "א", "д", "Ж", "Ω",
	"😀", "👍🏽", "👨\u200d👩\u200d👧", "\ufe0f", "🇫🇷",
	"\xff", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\x00",
	"<|endoftext|>", "<|fim_prefix|>",
}

var diffN = flag.Int("diffn", 3000, "random texts per encoding in TestDifferential")

func randomText(rng *rand.Rand, parts int) string {
	var b strings.Builder
	for range parts {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

func checkSame(t *testing.T, enc *Encoding, s string) bool {
	t.Helper()
	got := enc.Encode(s)
	want := refEncode(t, enc.Name(), s)
	if !slices.Equal(got, want) {
		t.Errorf("%s %q:\n got %v\nwant %v\npieces %q", enc.Name(), s, got, want, enc.Pieces(s))
		return false
	}
	if n := countOf(enc, s); n != len(want) {
		t.Errorf("%s %q: Count %d, want %d", enc.Name(), s, n, len(want))
		return false
	}
	return true
}

// TestDifferential compares both encodings with pkoukk/tiktoken-go on
// random texts drawn from alphabet (fixed seed).
func TestDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := *diffN
	if testing.Short() {
		n = 300
	}
	for _, enc := range []*Encoding{O200kBase, Cl100kBase} {
		fails := 0
		for range n {
			if !checkSame(t, enc, randomText(rng, 1+rng.IntN(12))) {
				fails++
				if fails > 10 {
					t.Fatal("too many differences")
				}
			}
		}
	}
}

// TestDifferentialLong checks long pieces, where merging uses the heap:
// runs without spaces of letters, digits, punctuation and mixed bytes.
func TestDifferentialLong(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	letters := func(n int, set string) string {
		var b strings.Builder
		for range n {
			b.WriteByte(set[rng.IntN(len(set))])
		}
		return b.String()
	}
	cases := map[string]string{
		"lower":   letters(3000, "abcdefghijklmnopqrstuvwxyz"),
		"hex":     letters(2000, "0123456789abcdef"),
		"aaaa":    strings.Repeat("a", 1000),
		"punct":   letters(1500, "!#$%&()*+,-./:;<=>?@[]^_{|}~"),
		"mixedup": letters(1200, "aAbBcCdDeE"),
		"cjk":     strings.Repeat("的一是不了人我在有他这为之大来以个中上们", 40),
		"emoji":   strings.Repeat("😀👍🏽👨\u200d👩\u200d👧", 60),
		"spaces":  strings.Repeat(" ", 700) + "x" + strings.Repeat("\t \n", 300),
	}
	for _, name := range slices.Sorted(mapKeys(cases)) {
		for _, enc := range []*Encoding{O200kBase, Cl100kBase} {
			t.Run(name+"/"+enc.Name(), func(t *testing.T) { checkSame(t, enc, cases[name]) })
		}
	}
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// FuzzEncodings checks, for any input, that both encodings give the
// reference's tokens and that Count agrees with Encode.
func FuzzEncodings(f *testing.F) {
	for _, s := range alphabet {
		f.Add(s)
	}
	f.Add("Hello, world! It's 2026.\n\n  func main() {}\n")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1024 {
			return // the reference is slow on long inputs
		}
		for _, enc := range []*Encoding{O200kBase, Cl100kBase} {
			done := make(chan struct{})
			go func() { countOf(enc, s); enc.Encode(s); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("%s: no result after 20s for %q", enc.Name(), s)
			}
			if !checkSame(t, enc, s) {
				return
			}
			if utf8.ValidString(s) && enc.Decode(enc.Encode(s)) != s {
				t.Errorf("%s: decode(encode(%q)) differs", enc.Name(), s)
			}
		}
	})
}
