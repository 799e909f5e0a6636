package hf

import (
	"fmt"
	"strings"
	"testing"
)

// The Split patterns of real tokenizer.json files must load (each through
// Go's regexp, even those a hand-written scanner takes), and the patterns
// that re-read a run at every piece must be refused.
func TestCheckLinear(t *testing.T) {
	accepted := []struct{ name, pattern string }{
		{"cl100k_base (Llama 3, Phi-4)", `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`},
		{"o200k_base (gpt-oss)", `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`},
		{"Qwen 2/3", `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`},
		{"Mistral Tekken", `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`},
		{"DeepSeek V3 (third Split)", "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\\r\\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"},
		{"DeepSeek V3 (digits)", `\p{N}{1,3}`},
		{"DeepSeek V3 (CJK)", `[一-龥぀-ゟ゠-ヿ]+`},
		{"GPT-2 (ByteLevel use_regex)", gpt2Pattern},
		{"Whitespace", `\w+|[^\w\s]+`},
		{"StarCoder digits", `\p{N}`},
	}
	for _, c := range accepted {
		if _, err := compileRE2(c.pattern); err != nil {
			t.Errorf("%s: refused: %v", c.name, err)
		}
	}
	refused := []string{
		`[^z]*z|.`, // issue 35's: each search reads to the next z
		`a*b|a`,    // a run of a, one piece each
		`[^z]*z|\p{L}+|\s+|.`,
		`(?:.+x)|\S`,  // inside a group
		`[^z]{2,}z|.`, // C{n,}
	}
	for _, p := range refused {
		_, err := compileRE2(p)
		if err == nil || !strings.Contains(err.Error(), "grows with the square of the text") || !strings.Contains(err.Error(), fmt.Sprintf("%q", p)) {
			t.Errorf("%q: got %v, want the quadratic refusal naming the pattern", p, err)
		}
	}
}

// A pattern with more repetitions than harpe probes is refused at once.
func TestCheckLinearTooMany(t *testing.T) {
	p := strings.Repeat(`a*b|`, 17) + "c"
	if _, err := compileRE2(p); err == nil || !strings.Contains(err.Error(), "more than 16 repetitions") {
		t.Errorf("got %v", err)
	}
	if _, err := compileRE2(strings.Repeat(`a*b|`, 16) + "c"); err != nil {
		t.Errorf("16 repetitions that do not re-read: %v", err)
	}
}

// A Replace normalizer's pattern is checked the same way (ReplaceAll finds
// every match as a split does).
func TestCheckLinearReplace(t *testing.T) {
	file := func(pattern string) string {
		return fmt.Sprintf(`{"normalizer":{"type":"Replace","pattern":{"Regex":%q},"content":"x"},"pre_tokenizer":null,
 "model":{"type":"WordPiece","vocab":{"a":0,"[UNK]":1},"unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":100}}`, pattern)
	}
	if _, err := Parse([]byte(file(`[^z]*z|.`)), "t.json"); err == nil || !strings.Contains(err.Error(), "normalizer Replace: pattern \"[^z]*z|.\": finding its matches takes time") {
		t.Errorf("got %v", err)
	}
	if _, err := Parse([]byte(file(`\s+`)), "t.json"); err != nil {
		t.Errorf("\\s+: %v", err)
	}
}
