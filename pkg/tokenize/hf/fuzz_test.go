package hf

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// FuzzParse: any bytes either load or give an error, and a loaded
// tokenizer counts any text without panicking, Count agreeing with Encode.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"bytelevel.json", "sentencepiece.json", "wordpiece.json", "unigram.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "abc ab<|end|> hi! Héllo 中 x€")
	}
	f.Add([]byte(`{"model":{"type":"BPE","vocab":{"a":0,"\u00e9":1},"merges":[["a","a"]]}}`), "aa")
	f.Add([]byte(`{"normalizer":{"type":"Sequence","normalizers":[{"type":"Sequence","normalizers":[{"type":"Lowercase"}]}]},"pre_tokenizer":{"type":"Sequence","pretokenizers":[{"type":"WhitespaceSplit"},{"type":"Metaspace","replacement":"_","prepend_scheme":"always"}]},"model":{"type":"WordPiece","unk_token":"u","vocab":{"u":0,"a":1,"_a":2}}}`), "a a\nA\n a\nb")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		tok, err := Parse(data, "fuzz")
		if err != nil {
			return
		}
		n, ids := countOf(tok, text), tok.Encode(text)
		if n != len(ids) {
			t.Errorf("Count = %d, Encode gives %d ids", n, len(ids))
		}
		// A layout that says it streams adds up over chunks.
		if tok.SafeChunks() || tok.LineChunks() {
			_, counts, err := tokenize.CountReader(context.Background(), strings.NewReader(text), []tokenize.Counter{tok}, tokenize.StreamOptions{ChunkSize: 5})
			if err != nil || counts[0] != n {
				t.Errorf("in chunks %v (%v), whole %d (SafeChunks %v, LineChunks %v)", counts, err, n, tok.SafeChunks(), tok.LineChunks())
			}
		}
	})
}

func BenchmarkCount(b *testing.B) {
	tok, err := Load("testdata/bytelevel.json")
	if err != nil {
		b.Fatal(err)
	}
	text, err := os.ReadFile("../../../testdata/tokens/prose_en.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	ctx := context.Background()
	for b.Loop() {
		tok.Count(ctx, string(text))
	}
}
