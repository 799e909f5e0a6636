package hf

import (
	"context"
	"encoding/json"
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
		if want := tok.Count(text); counts[0] != want {
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
