package hf

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize/internal/merge"
)

// The expected ids are worked out by hand (the working is in each case's
// comment) and were checked with npm tokenizers 0.23.2 (Hugging Face's
// Rust library): node scripts/hf-count.mjs --ids FILE TEXT-FILE, encode
// with addSpecialTokens false.
func TestEncodeFiles(t *testing.T) {
	tests := []struct {
		name, file, text string
		want             []int
	}{
		// bytelevel.json: ByteLevel with GPT-2's pattern; merges a+b (rank
		// 0), ab+c (1), Ġ+a (2).
		// "abc ab" splits into "abc" and " ab". abc: a b c → ab c → abc
		// (5). " ab" is Ġ a b: a+b (rank 0) beats Ġ+a (rank 2), and Ġ+ab
		// is no merge: Ġ (3) ab (4).
		{"bytelevel merges", "bytelevel.json", "abc ab", []int{5, 3, 4}},
		// The special <|end|> is found in the text: ab (4), 7, c (2).
		{"bytelevel special token", "bytelevel.json", "ab<|end|>c", []int{4, 7, 2}},
		// d is not in the vocabulary and there is no unk_token: dropped.
		{"bytelevel unknown dropped", "bytelevel.json", "ad", []int{0}},
		// <sep> has lstrip and rstrip: it takes " " before and "  " after;
		// x is dropped; "ab" is 4.
		{"added lstrip rstrip", "bytelevel.json", "x <sep>  ab", []int{8, 4}},
		// cab is single_word: alone it is 9; after "a" (a letter) it is
		// not taken, and "acab" is a c a b → a c ab: 0 2 4.
		{"added single_word alone", "bytelevel.json", "cab", []int{9}},
		{"added single_word inside", "bytelevel.json", "acab", []int{0, 2, 4}},
		{"added single_word before space", "bytelevel.json", "cab ab", []int{9, 3, 4}},
		{"empty", "bytelevel.json", "", []int{}},

		// sentencepiece.json: Prepend ▁, Replace " " → ▁, BPE with
		// byte_fallback and a fused unk. "hi hi!" → ▁hi▁hi!: ▁+h at 0 and
		// 3 (rank 0, leftmost first), then ▁h+i twice: ▁hi ▁hi (6 6), and
		// ! is not in the vocabulary, so its byte <0x21> (1).
		{"byte_fallback", "sentencepiece.json", "hi hi!", []int{6, 6, 1}},
		// € is E2 82 AC: ▁ (2) and its three byte tokens 7 8 9.
		{"byte_fallback multibyte", "sentencepiece.json", "€", []int{2, 7, 8, 9}},
		// x has no byte token (<0x78>), so it is <unk>; the unk is added
		// only at the next character found in the vocabulary or at the end,
		// so it comes after €'s bytes.
		{"unk after byte fallback", "sentencepiece.json", "x€", []int{2, 7, 8, 9, 0}},
		// x and y are one fused <unk>.
		{"fuse_unk", "sentencepiece.json", "xy", []int{2, 0}},

		// wordpiece.json: BertNormalizer lowercases and strips accents,
		// BertPreTokenizer splits "unaffable" "," "hello" "!"; unaffable
		// is un ##aff ##able.
		{"wordpiece", "wordpiece.json", "Unaffable, hello!", []int{1, 2, 3, 5, 4, 6}},
		{"wordpiece unk", "wordpiece.json", "xyz", []int{0}},
		// é is e and a combining accent after NFD; the accent goes.
		{"wordpiece strip accents", "wordpiece.json", "Héllo", []int{4}},
		// 中 gets spaces around it (handle_chinese_chars): 中 hello.
		{"wordpiece chinese", "wordpiece.json", "中hello", []int{7, 4}},

		// unigram.json: Metaspace (always prepend ▁, split). "ab ab" →
		// ▁ab ▁ab; in "▁ab" the best path is ▁a (-1.5) + b (-1) = -2.5,
		// against ▁ a b = -4 and ▁ab = -4: 2 3 each.
		{"unigram", "unigram.json", "ab ab", []int{2, 3, 2, 3}},
		// c is in no entry: ▁ (1) and <unk> (0) at -4-10.
		{"unigram unk", "unigram.json", "c", []int{1, 0}},
		// cc: one fused <unk>.
		{"unigram fused unk", "unigram.json", "cc", []int{1, 0}},
		// The empty text is no token, though Metaspace would prepend ▁.
		{"unigram empty", "unigram.json", "", []int{}},
		// One space: ▁ after the replacement (prepend skipped: it starts
		// with ▁ already).
		{"unigram space", "unigram.json", " ", []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tok, err := Load(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := tok.Encode(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("Encode(%q) = %v, want %v", tt.text, got, tt.want)
			}
			if got := countOf(tok, tt.text); got != len(tt.want) {
				t.Errorf("Count(%q) = %d, want %d", tt.text, got, len(tt.want))
			}
		})
	}
}

func pieces(t *testing.T, js, text string) []string {
	t.Helper()
	p, _, err := parsePreTokenizer([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, x := range p.split([]piece{{text, true}}, nil) {
		out = append(out, x.s)
	}
	return out
}

// The pre-tokenizers' splits, worked out from tokenizers' rules: the
// pattern's matches and the gaps between them, then the behaviour
// (Removed drops matches, Isolated keeps each, MergedWithPrevious joins a
// match to the part before, MergedWithNext to the part after, Contiguous
// joins runs), empty parts dropped.
func TestPreTokenizers(t *testing.T) {
	split := func(pat, behavior string, invert bool) string {
		return fmt.Sprintf(`{"type":"Split","pattern":{"String":%q},"behavior":%q,"invert":%v}`, pat, behavior, invert)
	}
	tests := []struct {
		name, js, text string
		want           []string
	}{
		{"removed", split("-", "Removed", false), "a-b--c", []string{"a", "b", "c"}},
		{"isolated", split("-", "Isolated", false), "a-b--c", []string{"a", "-", "b", "-", "-", "c"}},
		{"merged with previous", split("-", "MergedWithPrevious", false), "a-b--c", []string{"a-", "b-", "-", "c"}},
		{"merged with next", split("-", "MergedWithNext", false), "a-b--c", []string{"a", "-b", "-", "-c"}},
		{"contiguous", split("-", "Contiguous", false), "a-b--c", []string{"a", "-", "b", "--", "c"}},
		// invert: the non-matches are the delimiters; "-" runs are kept
		// as the gaps between them.
		{"invert removed", split("-", "Removed", true), "a-b--c", []string{"-", "-", "-"}},
		{"regex", `{"type":"Split","pattern":{"Regex":"\\d+"},"behavior":"Isolated","invert":false}`, "ab12c3", []string{"ab", "12", "c", "3"}},
		// \s is Unicode (Oniguruma), so U+3000 is white space.
		{"regex unicode space", `{"type":"Split","pattern":{"Regex":"\\s+"},"behavior":"Removed","invert":false}`, "a\u3000b", []string{"a", "b"}},
		// \s+(?!\S): "a   b" → "a", "  " (the run but its last space), " b"
		// with GPT-2's pattern.
		{"bytelevel lookahead", `{"type":"ByteLevel","add_prefix_space":false,"use_regex":true}`, "a   b  ", []string{"a", "  ", " b", "  "}},
		{"bytelevel prefix space", `{"type":"ByteLevel","add_prefix_space":true,"use_regex":true}`, "hi you", []string{" hi", " you"}},
		{"digits", `{"type":"Digits","individual_digits":false}`, "a123b4", []string{"a", "123", "b", "4"}},
		{"digits individual", `{"type":"Digits","individual_digits":true}`, "a12", []string{"a", "1", "2"}},
		{"whitespace", `{"type":"Whitespace"}`, "Hey  friend!! é", []string{"Hey", "friend", "!!", "é"}},
		{"whitespace split", `{"type":"WhitespaceSplit"}`, "Hey  friend!!", []string{"Hey", "friend!!"}},
		// $ is ASCII punctuation to Rust; « is Unicode Pi.
		{"punctuation", `{"type":"Punctuation","behavior":"Isolated"}`, "a$b«c", []string{"a", "$", "b", "«", "c"}},
		{"metaspace always", `{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true}`, "hi you", []string{"▁hi", "▁you"}},
		{"metaspace never no split", `{"type":"Metaspace","replacement":"▁","prepend_scheme":"never","split":false}`, "hi you", []string{"hi▁you"}},
		{"char delimiter", `{"type":"CharDelimiterSplit","delimiter":"x"}`, "axbxxc", []string{"a", "b", "c"}},
		{"sequence", `{"type":"Sequence","pretokenizers":[{"type":"WhitespaceSplit"},{"type":"Digits","individual_digits":true}]}`, "a1 b", []string{"a", "1", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pieces(t, tt.js, tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("split(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// Metaspace's "first" scheme prepends only to the part at the start of
// the text, not to one after an added token.
func TestMetaspaceFirst(t *testing.T) {
	p, _, err := parsePreTokenizer([]byte(`{"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":false}`))
	if err != nil {
		t.Fatal(err)
	}
	got := p.split([]piece{{"a b", true}, {"c", false}}, nil)
	if len(got) != 2 || got[0].s != "▁a▁b" || got[1].s != "c" {
		t.Errorf("got %v", got)
	}
}

// The normalizers, worked out from their definitions.
func TestNormalizers(t *testing.T) {
	tests := []struct {
		name, js, text, want string
	}{
		{"nfc", `{"type":"NFC"}`, "e\u0301", "é"},
		{"nfd", `{"type":"NFD"}`, "é", "e\u0301"},
		{"nfkc", `{"type":"NFKC"}`, "ﬁ①", "fi1"},
		{"nfkd", `{"type":"NFKD"}`, "ﬁé", "fie\u0301"},
		// İ lowercases to i and a combining dot, as Rust's to_lowercase.
		{"lowercase", `{"type":"Lowercase"}`, "ÀBİ", "àbi\u0307"},
		{"strip", `{"type":"Strip","strip_left":true,"strip_right":false}`, "  a  ", "a  "},
		{"strip accents", `{"type":"StripAccents"}`, "e\u0301", "e"},
		{"prepend", `{"type":"Prepend","prepend":"▁"}`, "a", "▁a"},
		{"prepend empty", `{"type":"Prepend","prepend":"▁"}`, "", ""},
		{"replace string", `{"type":"Replace","pattern":{"String":" "},"content":"▁"}`, "a b", "a▁b"},
		{"replace regex", `{"type":"Replace","pattern":{"Regex":" {2,}"},"content":" "}`, "a   b", "a b"},
		{"sequence", `{"type":"Sequence","normalizers":[{"type":"NFKC"},{"type":"Lowercase"}]}`, "ＡB", "ab"},
		{"bert", `{"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"strip_accents":null,"lowercase":true}`, "Hé\t中\x00", "he  中 "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := parseNormalizer([]byte(tt.js))
			if err != nil {
				t.Fatal(err)
			}
			if got := n(tt.text); got != tt.want {
				t.Errorf("normalize(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// What harpe does not implement is an error naming the component.
func TestUnsupported(t *testing.T) {
	base := func(norm, pre, model string) string {
		return `{"added_tokens":[],"normalizer":` + norm + `,"pre_tokenizer":` + pre + `,"model":` + model + `}`
	}
	bpe := `{"type":"BPE","dropout":null,"vocab":{"a":0},"merges":[]}`
	tests := []struct {
		name, file, want string
	}{
		{"precompiled", base(`{"type":"Precompiled","precompiled_charsmap":"AAAA"}`, "null", bpe), "normalizer Precompiled is not supported"},
		{"unicode scripts", base("null", `{"type":"UnicodeScripts"}`, bpe), "pre_tokenizer UnicodeScripts is not supported"},
		{"dropout", base("null", "null", `{"type":"BPE","dropout":0.1,"vocab":{"a":0},"merges":[]}`), "dropout 0.1"},
		{"wordlevel", base("null", "null", `{"type":"WordLevel","vocab":{"a":0},"unk_token":"a"}`), "model WordLevel is not supported"},
		{"lookahead", base("null", `{"type":"Split","pattern":{"Regex":"a(?=b)"},"behavior":"Isolated","invert":false}`, bpe), "does not compile with Go's RE2"},
		{"merge out of vocabulary", base("null", "null", `{"type":"BPE","vocab":{"a":0},"merges":["a a"]}`), `"aa" is not in the vocabulary`},
		{"unigram without unk", base("null", "null", `{"type":"Unigram","vocab":[["a",0]]}`), "without unk_id"},
		{"behavior", base("null", `{"type":"Split","pattern":{"String":"a"},"behavior":"Sideways","invert":false}`, bpe), `unknown behavior "Sideways"`},
		{"not json", `{"model":`, "not a tokenizer.json"},
		// NaN and infinite scores made the best path arbitrary (issue 35).
		{"nan score", base("null", "null", `{"type":"Unigram","unk_id":0,"vocab":[["a",0],["b",NaN]]}`), `piece "b": score NaN is not a finite number`},
		{"infinite score", base("null", "null", `{"type":"Unigram","unk_id":0,"vocab":[["a",-Infinity]]}`), `piece "a": score -Infinity is not a finite number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.file), "x.json")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// One Tokenizer counts from many goroutines at once (run with -race).
func TestConcurrent(t *testing.T) {
	tok, err := Load("testdata/bytelevel.json")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if n := countOf(tok, "abc ab<|end|>c"); n != 5 { // 5 3 4, 7, 2
					t.Errorf("Count = %d, want 5", n)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// Find picks the snapshot refs/main names, else the newest.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HF_HUB_CACHE", "")
	t.Setenv("HF_HOME", dir)
	base := filepath.Join(dir, "hub", "models--org--m")
	for _, rev := range []string{"aaa", "bbb"} {
		p := filepath.Join(base, "snapshots", rev)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "tokenizer.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(base, "refs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "refs", "main"), []byte("aaa\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Find("org/m")
	if want := filepath.Join(base, "snapshots", "aaa", "tokenizer.json"); err != nil || got != want {
		t.Errorf("Find = %q, %v; want %q", got, err, want)
	}
	if _, err := Find("org/none"); err == nil || !strings.Contains(err.Error(), "huggingface-cli download org/none tokenizer.json") {
		t.Errorf("Find(org/none) error = %v", err)
	}
}

// merge.Tree gives merge.Heap's tokens on long pieces of this model.
func TestBigMerge(t *testing.T) {
	tok, err := Load("testdata/bytelevel.json")
	if err != nil {
		t.Fatal(err)
	}
	b := tok.model.(*bpe)
	if !b.tree {
		t.Fatal("bytelevel.json's BPE cannot use merge.Tree")
	}
	seed := uint32(1)
	for _, n := range []int{1, 2, 3, 63, 64, 65, 1000, 70000} {
		text := make([]byte, n)
		for i := range text {
			seed = seed*1664525 + 1013904223
			text[i] = "aabbc "[seed>>29%6]
		}
		first := b.first(string(text), true, nil)
		var want []int
		for _, i := range merge.Heap(&merge.Merger{}, bpePairs{b, first}, len(first), nil) {
			want = append(want, int(first[i]))
		}
		first = b.first(string(text), true, nil)
		var got []int
		for i, w := range merge.Tree(bpePairs{b, first}, len(first), nil) {
			if merge.Len(w) > 0 {
				got = append(got, int(first[i]))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: merge.Tree gives %d tokens, merge.Heap %d", n, len(got), len(want))
		}
		if n >= 1000 && len(want) == n {
			t.Errorf("n=%d: no joins", n)
		}
	}
}

// TestBPEMatchesNaive: the BPE model's ids are those of the definition
// run step by step (join the adjacent pair listed first in merges, the
// leftmost on ties, until none is listed), on random vocabularies whose
// merges come in shuffled order (some wait for a merge listed after them,
// and some tokens are made by more than one pair) and random texts.
// (TestBigMerge checks merge.Tree against merge.Heap on long ones.)
func TestBPEMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 3))
	for k := range 60 {
		made := []string{"a", "b", "c", "d"}
		var merges []string
		seen := map[string]bool{}
		for len(merges) < 5+k {
			l, r := made[rng.IntN(len(made))], made[rng.IntN(len(made))]
			if len(l+r) > 10 || seen[l+" "+r] {
				continue
			}
			seen[l+" "+r] = true
			merges = append(merges, l+" "+r)
			if !slices.Contains(made, l+r) {
				made = append(made, l+r)
			}
		}
		rng.Shuffle(len(merges), func(i, j int) { merges[i], merges[j] = merges[j], merges[i] })
		vocab := map[string]int{}
		for _, s := range made {
			vocab[s] = len(vocab)
		}
		data, err := json.Marshal(map[string]any{"model": map[string]any{"type": "BPE", "vocab": vocab, "merges": merges}})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := Parse(data, "random")
		if err != nil {
			t.Fatal(err)
		}
		n := rng.IntN(400)
		text := make([]byte, n)
		for i := range text {
			text[i] = "abcd"[rng.IntN(4)]
		}
		// The definition, on token strings.
		rank := map[string]int{}
		for i, m := range merges {
			rank[m] = i
		}
		var toks []string
		for _, c := range string(text) {
			toks = append(toks, string(c))
		}
		for {
			best, at := len(merges), -1
			for i := 0; i+1 < len(toks); i++ {
				if r, ok := rank[toks[i]+" "+toks[i+1]]; ok && r < best {
					best, at = r, i
				}
			}
			if at < 0 {
				break
			}
			toks = slices.Replace(toks, at, at+2, toks[at]+toks[at+1])
		}
		want := []int{}
		for _, s := range toks {
			want = append(want, vocab[s])
		}
		if got := tok.Encode(string(text)); !slices.Equal(got, want) {
			t.Fatalf("vocabulary %d, %d letters: %d ids, the definition gives %d", k, n, len(got), len(want))
		}
	}
}
