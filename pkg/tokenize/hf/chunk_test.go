package hf

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// llamaLike is a tokenizer.json in Llama 3's layout (cl100k_base's split
// pattern, then ByteLevel) with the 256 byte characters and a few merges.
func llamaLike(t *testing.T, added string) *Tokenizer {
	t.Helper()
	vocab := map[string]int{}
	for c := range 256 {
		vocab[byteChars[c]] = c
	}
	merges := [][2]string{{"Ġ", "t"}, {"h", "e"}, {"Ġt", "he"}, {"i", "n"}, {"Ġ", "a"}, {"e", "r"}, {"Ċ", "Ċ"}}
	for _, m := range merges {
		if _, ok := vocab[m[0]+m[1]]; !ok {
			vocab[m[0]+m[1]] = len(vocab)
		}
	}
	file := map[string]any{
		"added_tokens": json.RawMessage(added),
		"normalizer":   nil,
		"pre_tokenizer": map[string]any{"type": "Sequence", "pretokenizers": []any{
			map[string]any{"type": "Split", "pattern": map[string]string{"Regex": `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`}, "behavior": "Isolated", "invert": false},
			map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false},
		}},
		"model": map[string]any{"type": "BPE", "dropout": nil, "ignore_merges": true, "vocab": vocab, "merges": merges},
	}
	b, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := Parse(b, "llama-like")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// A tokenizer in Llama 3's layout streams in chunks, and the chunks'
// counts add up to the whole text's; others are counted whole.
func TestSafeChunks(t *testing.T) {
	tok := llamaLike(t, `[{"id": 999, "content": "<|eot|>", "special": true}]`)
	if !tok.SafeChunks() {
		t.Fatal("SafeChunks = false for the Llama 3 layout")
	}
	for _, name := range []string{"prose_multilingual.txt", "code_go.txt", "json_api.txt", "chat_emoji.txt"} {
		b, err := os.ReadFile("../../../testdata/tokens/" + name)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b) + "<|eot|>\n" + string(b)
		_, counts, err := tokenize.CountReader(context.Background(), strings.NewReader(text), []tokenize.Counter{tok}, tokenize.StreamOptions{ChunkSize: 97})
		if err != nil {
			t.Fatal(err)
		}
		if want := countOf(tok, text); counts[0] != want {
			t.Errorf("%s: in chunks %d, whole %d", name, counts[0], want)
		}
	}
	for _, tc := range []struct{ name, added string }{
		{"added token with a space", `[{"id": 999, "content": "a b"}]`},
		{"lstrip", `[{"id": 999, "content": "<x>", "lstrip": true}]`},
	} {
		if llamaLike(t, tc.added).SafeChunks() {
			t.Errorf("%s: SafeChunks = true", tc.name)
		}
	}
	other, err := Load("testdata/bytelevel.json")
	if err != nil {
		t.Fatal(err)
	}
	if other.SafeChunks() {
		t.Error("SafeChunks = true for ByteLevel with GPT-2's pattern")
	}
}

// The BERT (WordPiece) and GPT-2 (ByteLevel) layouts stream over line
// breaks, and the chunks' counts add up to the whole text's; Metaspace
// (Unigram) and SentencePiece layouts do not say so and are counted whole.
// The property is checked on the sample texts and on seeded random texts
// of characters chosen to meet at line breaks, spaces and added tokens.
func TestLineChunks(t *testing.T) {
	for _, tc := range []struct {
		file string
		want bool
		edit func(string) string
	}{
		{"wordpiece.json", true, nil},
		// <sep> takes the white space on its left (lstrip): a line break.
		{"bytelevel.json", false, nil},
		{"bytelevel.json", true, func(s string) string { return strings.ReplaceAll(s, `"lstrip": true`, `"lstrip": false`) }},
		{"unigram.json", false, nil},
		{"sentencepiece.json", false, nil},
	} {
		data, err := os.ReadFile("testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if tc.edit != nil {
			data = []byte(tc.edit(string(data)))
		}
		tok, err := Parse(data, tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.LineChunks(); got != tc.want {
			t.Errorf("%s: LineChunks = %v, want %v", tc.file, got, tc.want)
		}
		if !tc.want {
			continue
		}
		var texts []string
		for _, name := range []string{"prose_multilingual.txt", "code_go.txt", "json_api.txt", "chat_emoji.txt"} {
			b, err := os.ReadFile("../../../testdata/tokens/" + name)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, string(b))
		}
		parts := []string{"a", "b", "un", "aff", "able", "hello", " ", "  ", "\n", "\n\n", " \n", "\t", ",", "!", "é", "中", "<sep>", "<|end|>", "cab", "/", "x"}
		rng := rand.New(rand.NewPCG(35, 4))
		for range 200 {
			var b strings.Builder
			for range 1 + rng.IntN(300) {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
			texts = append(texts, b.String())
		}
		for k, text := range texts {
			_, counts, err := tokenize.CountReader(context.Background(), strings.NewReader(text), []tokenize.Counter{tok, tokenize.Estimate}, tokenize.StreamOptions{ChunkSize: 7})
			if err != nil {
				t.Fatal(err)
			}
			if want := countOf(tok, text); counts[0] != want {
				t.Errorf("%s: text %d %q: in chunks %d, whole %d", tc.file, k, text[:min(len(text), 80)], counts[0], want)
			}
			if want := countOf(tokenize.Estimate, text); counts[1] != want {
				t.Errorf("%s: text %d: estimate in chunks %d, whole %d", tc.file, k, counts[1], want)
			}
		}
	}
}

// A counter that cannot be streamed holds at most MaxWhole bytes: past
// that the count is a *WholeTooLargeError naming it, not a read of all.
func TestWholeCapped(t *testing.T) {
	tok, err := Load("testdata/unigram.json")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("hello world\n", 100) // 1,200 bytes
	_, _, err = tokenize.CountReader(context.Background(), strings.NewReader(text), []tokenize.Counter{tok}, tokenize.StreamOptions{MaxWhole: 1000})
	var we *tokenize.WholeTooLargeError
	if !errors.As(err, &we) || we.Limit != 1000 || we.Counter != "testdata/unigram.json" {
		t.Fatalf("err = %v, want a WholeTooLargeError of 1000 bytes", err)
	}
	_, counts, err := tokenize.CountReader(context.Background(), strings.NewReader(text), []tokenize.Counter{tok}, tokenize.StreamOptions{MaxWhole: 1200})
	if err != nil || counts[0] != countOf(tok, text) {
		t.Fatalf("at the limit: %v, %v; want %d", counts, err, countOf(tok, text))
	}
}
