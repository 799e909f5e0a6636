// Package hf counts tokens exactly as Hugging Face's tokenizers library
// does, from a model's tokenizer.json.
//
// [Load] and [Parse] read the file; the [Tokenizer] they return counts
// ([Tokenizer.Count]) and encodes ([Tokenizer.Encode]) a text as
// tokenizers' encode does with add_special_tokens false: added tokens
// (special or not) found in the text count as one token each, and the
// post-processor's tokens are not added. It implements tokenize.Counter.
//
// Supported: the normalizers NFC, NFD, NFKC, NFKD, Lowercase, Strip,
// StripAccents, Prepend, Replace, BertNormalizer and Sequence; the
// pre-tokenizers ByteLevel, Split, Digits, Metaspace, Whitespace,
// WhitespaceSplit, Punctuation, BertPreTokenizer, CharDelimiterSplit and
// Sequence; the models BPE, Unigram and WordPiece. A file that uses
// anything else is an error that names the component: harpe never counts
// differently without saying so.
//
// Importing the package lets tokenize.New open a tokenizer.json by path
// ("./tokenizer.json", any name ending in .json) and from the Hugging Face
// cache ("hf:Qwen/Qwen3-8B"); see [Resolve].
package hf

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/cancel"
	"github.com/harpe-dev/harpe/internal/config"
	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// Tokenizer is a loaded tokenizer.json. It is safe for concurrent use.
type Tokenizer struct {
	name      string
	raw       *addedTokens // added tokens found in the raw text
	normd     *addedTokens // added tokens found in the normalized text
	norm      normalizer   // nil: none
	pre       preTokenizer // nil: none
	byteLevel bool
	model     model
	safe      bool // see SafeChunks
	lineSafe  bool // see LineChunks
}

type model interface {
	// count returns the number of tokens of a piece and appends their ids
	// to *ids when ids is not nil. raw is set for pieces of bytes after
	// ByteLevel.
	count(s string, raw bool, sc *scratch, ids *[]int) int
}

// MaxFileSize bounds a tokenizer.json that [Load] reads (harpe's own
// limit, chosen 2026-12-06: the largest public ones, Gemma's, are about
// 33 MB; the bound is the one a --prices file has).
const MaxFileSize = 64 << 20

// Bounds on a tokenizer.json's parts (harpe's own, chosen 2026-12-06),
// so that a hostile file cannot make loading or counting superlinear in
// a way a real one never needs: real files nest their normalizers and
// pre-tokenizers a few levels, their added tokens and Unigram pieces are
// tens of bytes (SentencePiece's default maximum piece length is 16
// characters), and WordPiece's max_input_chars_per_word is 100.
const (
	// MaxNesting bounds how deep the arrays and objects of the normalizer
	// and of the pre-tokenizer nest.
	MaxNesting = 64
	// MaxPiece bounds an added token's text and a Unigram piece, in bytes.
	MaxPiece = 1024
	// MaxWordChars bounds WordPiece's max_input_chars_per_word.
	MaxWordChars = 1000
)

// Load reads the tokenizer.json at path; the tokenizer's name is the path.
// The file must be a regular file (a FIFO or a device such as /dev/zero
// is refused before it is opened or read) of at most [MaxFileSize] bytes.
// Its errors begin with path.
func Load(path string) (*Tokenizer, error) {
	data, err := config.ReadSmallFile(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	t, err := Parse(data, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return t, nil
}

// Parse reads a tokenizer.json's contents; name is what Name returns.
func Parse(data []byte, name string) (*Tokenizer, error) {
	f, m, err := readFile(string(data))
	if err != nil {
		return nil, fmt.Errorf("not a tokenizer.json: %v", err)
	}
	t := &Tokenizer{name: name}
	for _, part := range []struct {
		what string
		raw  json.RawMessage
	}{{"normalizer", f.Normalizer}, {"pre_tokenizer", f.PreTokenizer}} {
		// Each level of a Sequence is decoded on its own: 4,995 nested
		// normalizers (181 KB) took 595 MB and 4.6 s to load.
		if jsonl.DeeperThan(part.raw, MaxNesting) >= 0 {
			return nil, fmt.Errorf("%s: nested more than %d levels deep (arrays and objects), harpe's limit", part.what, MaxNesting)
		}
	}
	for _, a := range f.AddedTokens {
		if len(a.Content) > MaxPiece {
			return nil, fmt.Errorf("added token %d: %d bytes, more than %d, harpe's limit for a token's text", a.ID, len(a.Content), MaxPiece)
		}
	}
	normNFC := false
	if !isNull(f.Normalizer) {
		if t.norm, err = parseNormalizer(f.Normalizer); err != nil {
			return nil, err
		}
		var c component
		normNFC = json.Unmarshal(f.Normalizer, &c) == nil && c.Type == "NFC"
	}
	if !isNull(f.PreTokenizer) {
		if t.pre, t.byteLevel, err = parsePreTokenizer(f.PreTokenizer); err != nil {
			return nil, err
		}
	}
	switch m.Type {
	case "BPE", "":
		// Files written before models had a type are BPE when they have
		// merges.
		if m.Type == "" && (m.Merges == "" || m.Merges == "null") {
			return nil, fmt.Errorf("model has no type")
		}
		t.model, err = parseBPE(m, t.byteLevel)
	case "Unigram":
		t.model, err = parseUnigram(m, t.byteLevel)
	case "WordPiece":
		t.model, err = parseWordPiece(m, t.byteLevel)
	default:
		err = fmt.Errorf("model %s is not supported by harpe (supported: BPE, Unigram, WordPiece)", m.Type)
	}
	if err != nil {
		return nil, err
	}
	for _, a := range f.AddedTokens {
		tok := addedToken{id: a.ID, lstrip: a.LStrip, rstrip: a.RStrip, singleWord: a.SingleWord}
		if a.Content == "" {
			continue
		}
		if !a.Normalized {
			if t.raw == nil {
				t.raw = &addedTokens{}
			}
			t.raw.add(a.Content, tok)
			continue
		}
		content := a.Content
		if t.norm != nil {
			content = t.norm(content)
		}
		if t.normd == nil {
			t.normd = &addedTokens{}
		}
		t.normd.add(content, tok)
	}
	t.safe = (t.norm == nil || normNFC) && safePre(t.pre) && safeAdded(f.AddedTokens)
	t.lineSafe = t.safe || lineAdded(f.AddedTokens) && linePre(f.PreTokenizer, t.norm == nil || normNFC) && lineNorm(f.Normalizer)
	return t, nil
}

// LineChunks reports whether the tokenizer's counts add up over chunks
// cut at tokenize.LineBoundary (a line break between a character that is
// not a space and one that is neither a space nor '/'), so that
// tokenize.CountReader streams it in bounded memory. Pre-tokenizers work
// on the pieces the one before them made, and the model on the last
// ones, so it holds when the first pre-tokenizer always splits at such a
// line break and at the end of a text alike: Whitespace, WhitespaceSplit,
// BertPreTokenizer, a Split SafeChunks takes, or ByteLevel without a
// prefix space whose pattern is GPT-2's (after no normalizer or NFC);
// when no later one looks at where its piece stood in the whole text
// (Metaspace's prepend_scheme first, a prefix space on a ByteLevel that
// splits nothing); when the normalizer changes characters one by one
// (NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, BertNormalizer, Replace
// of a string holding no line break, a Sequence of these), keeping a line
// break white space; and when no added token holds a line break or strips
// the white space on its left.
// It is so for the BERT (WordPiece) and GPT-2 layouts; not for Metaspace
// (Unigram, SentencePiece) layouts, which split between words but not at
// line breaks, nor for files without a pre-tokenizer, whose one piece is
// the whole text.
func (t *Tokenizer) LineChunks() bool { return t.lineSafe }

// lineAdded reports whether no added token can match across a line break
// or take one beyond its text: none holds a line break or takes the white
// space before it (lstrip). rstrip takes white space up to the next
// character only, and a single word's edges are the same at a line break
// as at the start of a text.
func lineAdded(toks []addedJSON) bool {
	for _, a := range toks {
		if a.LStrip || strings.ContainsAny(a.Content, "\n\r") {
			return false
		}
	}
	return true
}

// lineNorm reports whether a normalizer (null for none) changes characters
// one by one, as LineChunks wants.
func lineNorm(r json.RawMessage) bool {
	if isNull(r) {
		return true
	}
	var c component
	if json.Unmarshal(r, &c) != nil {
		return false
	}
	switch c.Type {
	case "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents", "BertNormalizer":
		return true
	case "Replace":
		return c.Pattern != nil && c.Pattern.String != nil && c.Pattern.Regex == nil && !strings.ContainsAny(*c.Pattern.String, "\n")
	case "Sequence":
		for _, sub := range c.Normalizers {
			if !lineNorm(sub) {
				return false
			}
		}
		return true
	}
	return false
}

// linePre reports whether a pre-tokenizer splits at every
// tokenize.LineBoundary, as LineChunks wants; plainNorm says whether the
// normalizer is none or NFC (GPT-2's pattern is then run on the text as
// it came).
func linePre(r json.RawMessage, plainNorm bool) bool {
	if isNull(r) {
		return false
	}
	var c component
	if json.Unmarshal(r, &c) != nil {
		return false
	}
	if c.Type == "Sequence" {
		if len(c.PreTokenizers) == 0 || !linePre(c.PreTokenizers[0], plainNorm) {
			return false
		}
		for _, sub := range c.PreTokenizers[1:] {
			if !pieceLocal(sub) {
				return false
			}
		}
		return true
	}
	switch c.Type {
	case "Whitespace", "WhitespaceSplit", "BertPreTokenizer":
		return true
	case "ByteLevel":
		return plainNorm && c.AddPrefixSpace != nil && !*c.AddPrefixSpace && (c.UseRegex == nil || *c.UseRegex)
	case "Split":
		if c.Pattern == nil || c.Pattern.Regex == nil || c.Invert || c.Behavior != "Isolated" {
			return false
		}
		_, known := tokenize.KnownSplit(*c.Pattern.Regex)
		return known
	}
	return false
}

// pieceLocal reports whether a pre-tokenizer treats each piece it is given
// the same wherever the piece stood: all but Metaspace with
// prepend_scheme first (which knows the text's first piece) and a
// Sequence holding one.
func pieceLocal(r json.RawMessage) bool {
	var c component
	if json.Unmarshal(r, &c) != nil {
		return false
	}
	switch c.Type {
	case "Metaspace":
		return c.PrependScheme != "first"
	case "Sequence":
		for _, sub := range c.PreTokenizers {
			if !pieceLocal(sub) {
				return false
			}
		}
	}
	return true
}

// SafeChunks reports whether the tokenizer's counts add up over chunks cut
// at tokenize.SafeBoundary (a line break before printable ASCII, or a
// space between ASCII letters), so that tokenize.CountReader streams it in
// bounded memory. That holds for the Llama 3, Qwen and gpt-oss layout: no
// normalizer or NFC (which never joins a character to a line break or a
// space, nor across one), a Split with a pattern a hand-written scanner of
// package tokenize matches (whose pieces never cross such a boundary, as
// that package shows for its encodings; Qwen's differs only in taking
// digits one at a time), then ByteLevel without a prefix space or pattern;
// and added tokens that hold no space or line break and take nothing
// beyond their text (no lstrip, rstrip, single_word), so no match crosses
// the boundary. For other files SafeChunks is false and a stream is
// counted whole.
func (t *Tokenizer) SafeChunks() bool { return t.safe }

func safePre(p preTokenizer) bool {
	q, ok := p.(sequence)
	if !ok || len(q) != 2 {
		return false
	}
	sp, ok1 := q[0].(*splitter)
	bl, ok2 := q[1].(*byteLevel)
	return ok1 && ok2 && sp.known && sp.behavior == isolated && !sp.invert && !bl.prefix && bl.sp == nil
}

func safeAdded(toks []addedJSON) bool {
	for _, a := range toks {
		if a.LStrip || a.RStrip || a.SingleWord || strings.ContainsAny(a.Content, " \n\r") {
			return false
		}
	}
	return true
}

// Name returns the name given to Load or Parse.
func (t *Tokenizer) Name() string { return t.name }

// Count returns the number of tokens tokenizers' encode gives for s
// without special tokens added, or ctx's error and no count once ctx is
// done (it looks before it starts and every few thousand pieces).
// Invalid UTF-8 is read as Go's []rune reads it: each bad byte is U+FFFD.
func (t *Tokenizer) Count(ctx context.Context, s string) (int, error) {
	done := ctx.Done()
	if cancel.Stopped(done) {
		return 0, ctx.Err()
	}
	n, ok := t.run(done, s, nil)
	if !ok {
		return 0, ctx.Err()
	}
	return n, nil
}

// Encode returns the token ids tokenizers' encode gives for s without
// special tokens added.
func (t *Tokenizer) Encode(s string) []int {
	ids := []int{}
	t.run(nil, s, &ids)
	return ids
}

// maxSeen bounds the pieces one count remembers the count of.
const maxSeen = 1 << 14

func (t *Tokenizer) run(done <-chan struct{}, s string, ids *[]int) (int, bool) {
	if s == "" {
		// tokenizers encodes nothing, even where Metaspace would prepend.
		return 0, true
	}
	s = validUTF8(s)
	sc := &scratch{}
	n, steps := 0, 0
	stopped := false
	var seen map[string]int
	token := func(id int32) {
		n++
		if ids != nil {
			*ids = append(*ids, int(id))
		}
	}
	t.raw.each(s, token, func(part string, first bool) {
		if stopped {
			return
		}
		if t.norm != nil {
			part = t.norm(part)
		}
		t.normd.each(part, token, func(part string, first2 bool) {
			if stopped {
				return
			}
			pieces := []piece{{part, first && first2}}
			if t.pre != nil {
				pieces = t.pre.split(pieces, nil)
			}
			for _, p := range pieces {
				if steps++; steps%cancel.Every == 0 && cancel.Stopped(done) {
					stopped = true
					return
				}
				if ids == nil && len(p.s) <= 64 {
					if k, ok := seen[p.s]; ok {
						n += k
						continue
					}
				}
				k := t.model.count(p.s, t.byteLevel, sc, ids)
				n += k
				if ids == nil && len(p.s) <= 64 {
					if seen == nil {
						seen = make(map[string]int)
					}
					if len(seen) < maxSeen {
						seen[p.s] = k
					}
				}
			}
		})
	})
	return n, !stopped
}

// validUTF8 returns s with every byte that does not start a valid UTF-8
// sequence replaced by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+len(s)/8+8)
	for _, r := range s {
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}
