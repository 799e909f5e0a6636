package tokenize

import (
	"strings"
	"testing"
)

// Each expected count is worked by hand from the rule:
// max(pieces + hex_extra, chars / 4), integer division.
func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},                            // 0 pieces, 0 chars
		{"one word", "hello", 1},                    // 1 piece; 5/4 = 1
		{"two words", "hello world", 2},             // 2 pieces; 11/4 = 2
		{"long word", strings.Repeat("g", 100), 25}, // 1 piece; 100/4 = 25
		// 'a' is a hex digit: a run of 100 adds 100/3 = 33; 1 + 33 = 34.
		{"long hex-letter word", strings.Repeat("a", 100), 34},
		// 9 words + "." = 10 pieces; 44 chars / 4 = 11.
		{"sentence", "The quick brown fox jumps over the lazy dog.", 11},
		{"underscores join", "snake_case_name", 3}, // 1 piece; 15/4 = 3
		{"letters and digits", "abc123_XYZ", 2},    // 1 piece; 10/4 = 2
		{"punctuation each", "a,b;c", 5},           // a , b ; c; 5/4 = 1
		{"only punctuation", "!!!", 3},             // 3 pieces; 3/4 = 0
		{"apostrophe", "don't", 3},                 // don ' t; 5/4 = 1
		{"abbreviation", "e.g.", 4},                // e . g .; 4/4 = 1
		{"double space", "x  y", 2},                // 2 pieces; 4/4 = 1
		{"only spaces", "   \t\n", 1},              // 0 pieces; 5/4 = 1
		{"url", "https://example.com/a?b=1", 13},   // https : / / example . com / a ? b = 1; 25/4 = 6
		{"json", `{"k": [1, 2]}`, 11},              // { " k " : [ 1 , 2 ] }; 13/4 = 3
		{"code", "x := f(y)", 7},                   // x : = f ( y ); 9/4 = 2
		{"cjk", "你好世界", 4},                         // 4 code points, one piece each; 4/4 = 1
		{"japanese", "日本語のテキスト", 8},                // 8 code points; 8/4 = 2
		{"cjk with ascii", "Go语言", 3},              // Go 语 言; 4/4 = 1
		{"emoji", "😀", 1},                          // 1 code point
		{"emoji between words", "ok 👍 done", 3},    // ok 👍 done; 9/4 = 2
		// man ZWJ woman ZWJ girl: 5 code points, the ZWJ is not white space.
		{"zwj family", "\U0001F468\u200D\U0001F469\u200D\U0001F467", 5},
		{"flag", "🇫🇷", 2},                     // two regional indicators
		{"skin tone", "👍🏽", 2},                // thumbs up + modifier
		{"accented", "café", 2},               // caf é; 4/4 = 1
		{"combining accent", "cafe\u0301", 2}, // cafe + U+0301; 5/4 = 1
		// na ï ve + r é sum é = 3 + 4 = 7; 12/4 = 3.
		{"accented words", "naïve résumé", 7},
		{"n tilde", "Ñandú", 3},                      // Ñ and ú; 5/4 = 1
		{"ascii white space", "a\tb\nc\rd\ve\ff", 6}, // 6 pieces; 11/4 = 2
		{"no-break space", "a\u00a0b", 2},
		{"em space", "a\u2003b", 2},
		{"ideographic space", "a\u3000b", 2},
		{"line and paragraph separators", "a\u2028b\u2029c", 3},
		{"next line", "a\u0085b", 2},
		{"ogham space mark", "a\u1680b", 2},
		{"narrow no-break and math spaces", "a\u202fb\u205fc", 3},
		{"en quad to hair space", "a\u2000b\u200ac", 3},
		// All 25 White_Space code points: no piece; 25/4 = 6.
		{"every white space alone", allSpaces, 6},
		// The 26 letters a-z with one of the spaces between each pair:
		// 26 pieces (hex runs of 1 only); 51/4 = 12.
		{"every white space between letters", interleave("abcdefghijklmnopqrstuvwxyz", allSpaces), 26},
		// Not White_Space: zero width space, Mongolian vowel separator
		// (no longer a space since Unicode 6.3), BOM. Each is a piece.
		{"zero width space", "a\u200bb", 3},
		{"mongolian vowel separator", "a\u180eb", 3},
		{"byte order mark", "a\ufeffb", 3},
		{"hex run of 7", "abcdef1", 1},               // 1 piece, run < 8; 7/4 = 1
		{"hex run of 8", "deadbeef", 3},              // 1 + 8/3 = 3; 8/4 = 2
		{"upper hex run of 8", "DEADBEEF", 3},        // as above
		{"digits are hex", "12345678", 3},            // 1 + 8/3 = 3
		{"hex run of 20", "0123456789abcdef0123", 7}, // 1 + 20/3 = 7; 20/4 = 5
		{"hex run of 12", "deadbeefcafe", 5},         // 1 + 12/3 = 5; 12/4 = 3
		// "d" then '_' ends the run; "deadbeef" is 8: +2. 1 piece; 13/4 = 3.
		{"hex 8 inside a word", "id_deadbeef_x", 3},
		// 'x' and 'y' are not hex: the run is 7. 1 piece; 9/4 = 2.
		{"hex 7 inside a word", "x1234567y", 2},
		// "a" run 1, then the 20 run: +6. 1 piece; 26/4 = 6.
		{"hex 20 inside a word", "sha_0123456789abcdef0123_z", 7},
		// cafe - babe1234: 3 pieces; runs 4 and 8: +2; 13/4 = 3.
		{"hex run after punctuation", "cafe-babe1234", 5},
		{"short hex prefix", "0x1f", 1}, // 1 piece; runs 1 and 2; 4/4 = 1
		// Runs 8 4 4 4 12: +2 +4 = 6; 5 words + 4 hyphens = 9; 36/4 = 9.
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", 15},
		// In prose: "id" + " " + uuid: 1 + 15 = 16; 39/4 = 9.
		{"uuid in text", "id 123e4567-e89b-12d3-a456-426614174000", 16},
		{"invalid byte", "\xff", 1},                   // one char, one piece
		{"invalid byte between letters", "a\xffb", 3}, // a, 0xff, b
		// A cut 3-byte sequence: two invalid bytes, two pieces.
		{"truncated sequence", "\xe4\xbd", 2},
		// The invalid byte ends the hex run: "deadbee" 7 and "f" 1.
		{"invalid byte splits a hex run", "deadbee\xfff", 3}, // deadbee, 0xff, f; 9/4 = 2
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EstimateTokens(tt.text); got != tt.want {
				t.Errorf("EstimateTokens(%q) = %d, want %d", tt.text, got, tt.want)
			}
			if got := countOf(Estimate, tt.text); got != tt.want {
				t.Errorf("Estimate.Count(%q) = %d, want %d", tt.text, got, tt.want)
			}
		})
	}
	if Estimate.Name() != "estimate" {
		t.Errorf("Name() = %q", Estimate.Name())
	}
}

// allSpaces holds every code point with the Unicode White_Space property.
const allSpaces = "\t\n\v\f\r \u0085\u00a0\u1680" +
	"\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" +
	"\u2028\u2029\u202f\u205f\u3000"

// interleave puts the runes of sep between the runes of s.
func interleave(s, sep string) string {
	seps := []rune(sep)
	var b strings.Builder
	for i, r := range []rune(s) {
		if i > 0 {
			b.WriteRune(seps[(i-1)%len(seps)])
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestNew(t *testing.T) {
	c, err := New("estimate")
	if err != nil || c.Name() != "estimate" {
		t.Errorf("New(estimate) = %v, %v", c, err)
	}
	if _, err := New("nope"); err == nil || !strings.HasPrefix(err.Error(), `unknown tokenizer "nope"; valid: `) || !strings.Contains(err.Error(), "estimate") {
		t.Errorf("New(nope) err = %v", err)
	}
}

// prose is English text as an agent's context holds it.
const prose = `The deployment failed at the migration step because the new column was
added without a default value, and the table already held several million
rows. We rolled back, added the default in a separate migration, and ran the
backfill in batches of ten thousand rows so that the primary never fell more
than a few seconds behind. Next time, check the row count before choosing a
migration strategy, and keep the schema change and the data change apart.
`

// BenchmarkEstimate measures the estimate on English prose (goal ≥ 300 MB/s).
func BenchmarkEstimate(b *testing.B) {
	text := strings.Repeat(prose, 200) // about 90 KB
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		EstimateTokens(text)
	}
}
