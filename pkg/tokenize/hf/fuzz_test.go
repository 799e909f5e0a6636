package hf

import (
	"os"
	"testing"
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
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		tok, err := Parse(data, "fuzz")
		if err != nil {
			return
		}
		if n, ids := tok.Count(text), tok.Encode(text); n != len(ids) {
			t.Errorf("Count = %d, Encode gives %d ids", n, len(ids))
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
	for b.Loop() {
		tok.Count(string(text))
	}
}
