package jsonl

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSkipValue(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		depth  int
		end    int // len(in) - trailing bytes, counted by hand
		spaced bool
		ok     bool
	}{
		{"string", `"a\"b" tail`, 10, 6, false, true},
		{"compact object", `{"a":[1,2,{"b":null}]}`, 10, 22, false, true},
		{"spaced object", `{"a": [1, 2]}`, 10, 13, true, true},
		{"leading space is not inside", `  [1]`, 10, 5, false, true},
		{"space in a string is not counted", `["a b"]`, 10, 7, false, true},
		{"depth limit reached", `[[[1]]]`, 2, 2, false, false},
		{"depth limit exact", `[[1]]`, 2, 5, false, true},
		{"missing colon", `{"a" 1}`, 10, 5, true, false},
		{"trailing comma", `[1,]`, 10, 3, false, false},
		{"bad number", `-x`, 10, 1, false, false},
		{"bad escape", `"\x"`, 10, 1, false, false},
		{"control character", "\"a\x01\"", 10, 2, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			end, spaced, ok := SkipValue([]byte(tt.in), 0, tt.depth)
			if end != tt.end || spaced != tt.spaced || ok != tt.ok {
				t.Errorf("SkipValue(%q) = %d, %v, %v; want %d, %v, %v", tt.in, end, spaced, ok, tt.end, tt.spaced, tt.ok)
			}
		})
	}
}

// FuzzSkipValue checks SkipValue against encoding/json: a text SkipValue
// reads whole (nesting allowed up to json's own 10,000) is one json.Valid
// accepts and the other way round, and Unquote decodes every string as
// json.Unmarshal does.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e3,true,false,null,"x\u00e9\ud83d\ude00"]}`, `"\ud800"`, `[`, `01`, `{"a" :1 }`, "\"\t\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := []byte(s)
		end, _, ok := SkipValue(d, 0, 10000)
		whole := ok && SkipSpace(d, end) == len(d)
		if whole != json.Valid(d) {
			t.Fatalf("SkipValue(%q) whole = %v, json.Valid = %v", s, whole, !whole)
		}
		// Unquote leaves bytes that are not UTF-8 as they are (callers check
		// UTF-8 first), where json replaces each with U+FFFD.
		if whole && utf8.ValidString(s) && strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), `"`) {
			i := SkipSpace(d, 0)
			e, _, _, ok := ScanString(d, i)
			var want string
			if err := json.Unmarshal(d, &want); err != nil || !ok {
				t.Fatalf("ScanString(%q) ok = %v, json: %v", s, ok, err)
			}
			if got := Unquote(d[i+1 : e-1]); got != want {
				t.Fatalf("Unquote(%q) = %q, json gives %q", s, got, want)
			}
		}
	})
}

// DeeperThan finds the first bracket past the limit, strings and their
// escapes read past. Offsets counted by hand.
func TestDeeperThan(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  int
	}{
		{`[[1]]`, 2, -1},
		{`[[1]]`, 1, 1},
		{`{"a":[{}]}`, 2, 6},
		{`["[[[", "\"[["]`, 1, -1},
		{`[1],[2]`, 1, -1},
		{``, 0, -1},
	}
	for _, tt := range tests {
		if got := DeeperThan([]byte(tt.in), tt.limit); got != tt.want {
			t.Errorf("DeeperThan(%s, %d) = %d, want %d", tt.in, tt.limit, got, tt.want)
		}
	}
}

// FuzzDeeperThan: on valid JSON, DeeperThan agrees with the nesting
// encoding/json's tokens show.
func FuzzDeeperThan(f *testing.F) {
	for _, s := range []string{`[[1]]`, `{"a":[{}],"b":"[[["}`, `"\\\"["`, `[]`, `1`} {
		f.Add([]byte(s), 2)
	}
	f.Fuzz(func(t *testing.T, d []byte, limit int) {
		if !json.Valid(d) || limit < 0 || limit > 100 {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(d))
		depth, want := 0, -1
		for {
			before := dec.InputOffset()
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch tok {
			case json.Delim('{'), json.Delim('['):
				if depth++; depth > limit && want < 0 {
					// The delimiter is the first byte after the white
					// space that follows the previous token.
					want = int(before) + len(d[before:]) - len(bytes.TrimLeft(d[before:], " \t\r\n,:"))
				}
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
		}
		if got := DeeperThan(d, limit); got != want {
			t.Errorf("DeeperThan(%s, %d) = %d, want %d", d, limit, got, want)
		}
	})
}

// TestScanInt: plain integers of up to 18 digits in one pass; anything
// else is left to ScanNumber, which agrees on where a number ends.
func TestScanInt(t *testing.T) {
	tests := []struct {
		in  string
		end int
		v   int64
		ok  bool
	}{
		{"0", 1, 0, true},
		{"-42,", 3, -42, true},
		{"123456789012345678]", 18, 123456789012345678, true},
		{"1234567890123456789", 19, 0, false},
		{"01", 1, 0, true},
		{"1.5", 1, 0, false},
		{"2e3", 1, 0, false},
		{"-", 1, 0, false},
		{"x", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tc := range tests {
		end, v, ok := ScanInt([]byte(tc.in), 0)
		if end != tc.end || v != tc.v || ok != tc.ok {
			t.Errorf("ScanInt(%q) = %d, %d, %v; want %d, %d, %v", tc.in, end, v, ok, tc.end, tc.v, tc.ok)
		}
	}
}

// FuzzScanInt: where ScanInt reads a number, ScanNumber reads the same
// bytes as a plain integer and strconv gives the same value.
func FuzzScanInt(f *testing.F) {
	for _, s := range []string{"0", "-7", "12x", "01", "1.5", "999999999999999999", "1e2"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		end, v, ok := ScanInt(d, 0)
		if !ok {
			return
		}
		nend, integer, nok := ScanNumber(d, 0)
		want, err := strconv.ParseInt(string(d[:end]), 10, 64)
		if !nok || !integer || nend != end || err != nil || want != v {
			t.Errorf("%q: ScanInt %d, %d; ScanNumber %d, %v, %v; strconv %d, %v", d, end, v, nend, integer, nok, want, err)
		}
	})
}
