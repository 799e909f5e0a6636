package hf

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The parts of a tokenizer.json that decide how a text is split into
// tokens. The post-processor (which adds special tokens when asked to), the
// decoder, truncation and padding do not change how many tokens a text
// encodes to without special tokens, and are not read.
type fileJSON struct {
	AddedTokens  []addedJSON     `json:"added_tokens"`
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
}

type addedJSON struct {
	ID         int32  `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

// readFile reads the parts of a tokenizer.json that harpe uses.
func readFile(s string) (*fileJSON, *modelJSON, error) {
	top, err := fields(s)
	if err != nil {
		return nil, nil, err
	}
	f := &fileJSON{
		Normalizer:   json.RawMessage(top["normalizer"]),
		PreTokenizer: json.RawMessage(top["pre_tokenizer"]),
	}
	if a := top["added_tokens"]; a != "" && a != "null" {
		if err := decodeSmall(a, &f.AddedTokens); err != nil {
			return nil, nil, fmt.Errorf("added_tokens: %v", err)
		}
	}
	ms, ok := top["model"]
	if !ok || ms == "null" {
		return nil, nil, fmt.Errorf("no model")
	}
	mf, err := fields(ms)
	if err != nil {
		return nil, nil, fmt.Errorf("model: %v", err)
	}
	// The small fields go through encoding/json, the vocabulary and the
	// merges through the hand-written reader.
	var rest []string
	for k, v := range mf {
		if k != "vocab" && k != "merges" {
			rest = append(rest, strconv.Quote(k)+":"+v)
		}
	}
	slices.Sort(rest)
	m := &modelJSON{}
	if err := decodeSmall("{"+strings.Join(rest, ",")+"}", m); err != nil {
		return nil, nil, fmt.Errorf("model: %v", err)
	}
	m.Vocab, m.Merges = mf["vocab"], mf["merges"]
	return f, m, nil
}

// component is any normalizer, pre-tokenizer or model: its "type" and
// every field any of them has.
type component struct {
	Type string `json:"type"`

	// Sequence
	Normalizers   []json.RawMessage `json:"normalizers"`
	PreTokenizers []json.RawMessage `json:"pretokenizers"`

	// Replace, Split
	Pattern  *patternJSON `json:"pattern"`
	Content  string       `json:"content"`
	Behavior string       `json:"behavior"`
	Invert   bool         `json:"invert"`

	// Prepend
	Prepend string `json:"prepend"`

	// Strip
	StripLeft  bool `json:"strip_left"`
	StripRight bool `json:"strip_right"`

	// BertNormalizer
	CleanText          *bool `json:"clean_text"`
	HandleChineseChars *bool `json:"handle_chinese_chars"`
	StripAccents       *bool `json:"strip_accents"`
	Lowercase          *bool `json:"lowercase"`

	// ByteLevel
	AddPrefixSpace *bool `json:"add_prefix_space"`
	UseRegex       *bool `json:"use_regex"`

	// Digits
	IndividualDigits bool `json:"individual_digits"`

	// Metaspace
	Replacement   string `json:"replacement"`
	PrependScheme string `json:"prepend_scheme"`
	Split         *bool  `json:"split"`

	// CharDelimiterSplit
	Delimiter string `json:"delimiter"`
}

type patternJSON struct {
	String *string `json:"String"`
	Regex  *string `json:"Regex"`
}

// modelJSON is the model: BPE, Unigram or WordPiece.
type modelJSON struct {
	Type string `json:"type"`

	// BPE and WordPiece
	Vocab string `json:"-"` // the text of the value

	UnkToken                *string `json:"unk_token"`
	ContinuingSubwordPrefix *string `json:"continuing_subword_prefix"`

	// BPE
	Merges          string   `json:"-"` // the text of the value
	Dropout         *float64 `json:"dropout"`
	EndOfWordSuffix *string  `json:"end_of_word_suffix"`
	FuseUnk         bool     `json:"fuse_unk"`
	ByteFallback    bool     `json:"byte_fallback"`
	IgnoreMerges    bool     `json:"ignore_merges"`

	// Unigram
	UnkID *int `json:"unk_id"`

	// WordPiece
	MaxInputCharsPerWord *int `json:"max_input_chars_per_word"`
}

func isNull(r json.RawMessage) bool { return len(r) == 0 || string(r) == "null" }

func parseComponent(r json.RawMessage, what string) (*component, error) {
	var c component
	if err := json.Unmarshal(r, &c); err != nil {
		return nil, fmt.Errorf("%s: %v", what, err)
	}
	if c.Type == "" {
		return nil, fmt.Errorf("%s has no type", what)
	}
	return &c, nil
}
