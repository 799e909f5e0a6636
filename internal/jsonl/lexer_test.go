package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// lexOn returns a Lexer on in with a buffer of 16 bytes (the smallest
// bufio allows), so that values cross buffer refills, and a func giving
// how many bytes of in it has consumed.
func lexOn(in string, checkUTF8 bool) (*Lexer, func() int) {
	r := strings.NewReader(in)
	br := bufio.NewReaderSize(r, 16)
	return NewLexer(br, checkUTF8), func() int { return len(in) - r.Len() - br.Buffered() }
}

func TestLexerCapture(t *testing.T) {
	long := strings.Repeat("ab\\\"c", 20)
	tests := []struct {
		name, in string
		want     string // "" for ErrUnread
		used     int    // bytes consumed when it succeeds
	}{
		{"object", ` {"a": [1, {"b": "}"}], "c": null} ,x`, `{"a": [1, {"b": "}"}], "c": null}`, 34},
		{"string across refills", `"` + long + `"]`, `"` + long + `"`, len(long) + 2},
		{"number before a comma", `-12.5e3,`, `-12.5e3`, 7},
		{"number at the end", `42`, `42`, 2},
		{"literal", "true\n", "true", 4},
		{"empty", "   ", "", 0},
		{"unterminated string", `"abc`, "", 0},
		{"unclosed object", `{"a":1`, "", 0},
		{"bad literal", `tru,`, "", 0},
		{"bad escape", `"a\x"`, "", 0},
		{"control character", "\"a\tb\"", "", 0},
		{"a close byte", `}`, "", 0},
		{"invalid UTF-8", "\"a\xffb\"", "", 0},
		{"too deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), "", 0},
		{"deepest allowed", strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), 2 * MaxDepth},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, used := lexOn(tc.in, true)
			got, err := l.Capture(nil)
			if tc.want == "" {
				if !errors.Is(err, ErrUnread) {
					t.Errorf("got %q, %v; want ErrUnread", got, err)
				}
				return
			}
			if err != nil || string(got) != tc.want || used() != tc.used {
				t.Errorf("got %q, %v, %d bytes read; want %q, %d", got, err, used(), tc.want, tc.used)
			}
		})
	}
}

// TestLexerUTF8: made without the check, a string's bytes pass as they
// are; the grammar is still checked.
func TestLexerUTF8(t *testing.T) {
	l, _ := lexOn("\"a\xffb\"", false)
	if got, err := l.Capture(nil); err != nil || string(got) != "\"a\xffb\"" {
		t.Errorf("got %q, %v", got, err)
	}
	l, _ = lexOn("\"a\xff\\qb\"", false)
	if _, err := l.Capture(nil); !errors.Is(err, ErrUnread) {
		t.Errorf("a bad escape: %v, want ErrUnread", err)
	}
}

// TestLexerSkip: Skip finds a value's end by its frame alone, whatever
// is inside, and fails only at the end of the input.
func TestLexerSkip(t *testing.T) {
	tests := []struct {
		name, in string
		used     int // -1: ErrUnread
	}{
		{"object", `{"a":"}"} x`, 9},
		{"brackets of either kind", `{"a":[1}}]`, 9},
		{"not JSON inside", `[tru, "\q", 01]`, 15},
		{"scalar to a delimiter", `tru x`, 3},
		{"scalar to the end", `123abc`, 6},
		{"first byte taken whatever it is", `},x`, 1},
		{"escaped quote", `"a\"b",`, 6},
		{"unterminated", `["a"`, -1},
		{"nothing", "  ", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, used := lexOn(tc.in, true)
			err := l.Skip()
			if end, ok := FrameEnd([]byte(tc.in), 0); ok != (err == nil) || ok && end != used() {
				t.Errorf("FrameEnd = %d, %v; Skip read %d bytes, %v", end, ok, used(), err)
			}
			if tc.used < 0 {
				if !errors.Is(err, ErrUnread) {
					t.Errorf("got %v, want ErrUnread", err)
				}
				return
			}
			if err != nil || used() != tc.used {
				t.Errorf("got %v, %d bytes read; want %d", err, used(), tc.used)
			}
		})
	}
}

func TestLexerRawString(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
		escaped  bool
		used     int // -1: ErrUnread
	}{
		{"plain", ` "messages":`, 64, "messages", false, 11},
		{"escape kept as it stands", `"mess\u0061ges"`, 64, `mess\u0061ges`, true, 15},
		{"escaped quote", `"a\"b"`, 64, `a\"b`, true, 6},
		{"cut at max", `"` + strings.Repeat("k", 40) + `"`, 10, strings.Repeat("k", 10), false, 42},
		{"not a string", `12`, 64, "", false, -1},
		{"unterminated", `"abc`, 64, "", false, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, used := lexOn(tc.in, true)
			got, esc, err := l.RawString(nil, tc.max)
			if tc.used < 0 {
				if !errors.Is(err, ErrUnread) {
					t.Errorf("got %q, %v; want ErrUnread", got, err)
				}
				return
			}
			if err != nil || string(got) != tc.want || esc != tc.escaped || used() != tc.used {
				t.Errorf("got %q, %v, %v, %d bytes; want %q, %v, %d", got, esc, err, used(), tc.want, tc.escaped, tc.used)
			}
		})
	}
}

// TestLexerObjectArray: members and elements in order, keys decoded;
// a wrong separator or kind is ErrUnread.
func TestLexerObjectArray(t *testing.T) {
	l, _ := lexOn(`{"a\u0062": [1, "x", {}], "c" : [] , "d":{}}`, true)
	var got []string
	err := l.Object(func(key string) error {
		got = append(got, key)
		if c, _ := l.Peek(); c != '[' {
			return l.Skip()
		}
		return l.Array(func(i int) error {
			v, err := l.Capture(nil)
			got = append(got, string(v))
			return err
		})
	})
	if want := []string{"ab", "1", `"x"`, "{}", "c", "d"}; err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	for _, in := range []string{`{"a":1;}`, `{a:1}`, `[1 2]`, `[1,`, `[`} {
		l, _ := lexOn(in, true)
		var err error
		if in[0] == '{' {
			err = l.Object(func(string) error { _, err := l.Capture(nil); return err })
		} else {
			err = l.Array(func(int) error { _, err := l.Capture(nil); return err })
		}
		if !errors.Is(err, ErrUnread) {
			t.Errorf("%s: got %v, want ErrUnread", in, err)
		}
	}
	l, _ = lexOn(`[1]`, true)
	if err := l.Object(func(string) error { return nil }); !errors.Is(err, ErrUnread) {
		t.Errorf("an array read as an object: %v", err)
	}
}

// FuzzLexer: what Capture returns is one valid JSON value (encoding/json
// agrees), Skip stops where Capture does and FrameEnd where Skip does, any input that is one valid
// value is captured whole, and the UTF-8 check refuses exactly the
// values that are not UTF-8.
func FuzzLexer(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, ` "x\"y" `, `-1.5e3`, `[tru]`, `{"a":1}{"b":2}`, "\"\xff\"", `[[[[]]]]`, `}`, `1,2`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		l, used := lexOn(string(in), false)
		v, err := l.Capture(nil)
		n := used()
		c, _ := lexOn(string(in), true)
		if vc, errc := c.Capture(nil); (errc == nil) != (err == nil && utf8.Valid(v)) || errc == nil && !bytes.Equal(vc, v) {
			t.Fatalf("%q: checking UTF-8, Capture gave %q, %v; without, %q, %v", in, vc, errc, v, err)
		}
		trimmed := bytes.TrimSpace(in)
		s, used2 := lexOn(string(in), true)
		skipErr := s.Skip()
		if end, ok := FrameEnd(in, 0); ok != (skipErr == nil) || ok && end != used2() {
			t.Fatalf("%q: FrameEnd = %d, %v; Skip read %d bytes, %v", in, end, ok, used2(), skipErr)
		}
		if json.Valid(in) {
			if err != nil || !bytes.Equal(v, trimmed) {
				t.Fatalf("%q is valid JSON; Capture gave %q, %v", in, v, err)
			}
		}
		if err != nil {
			return
		}
		if !json.Valid(v) {
			t.Fatalf("Capture gave %q from %q, not valid JSON", v, in)
		}
		if !bytes.HasPrefix(trimmed, v) {
			t.Fatalf("Capture gave %q, not the start of %q", v, in)
		}
		if skipErr != nil || used2() != n {
			t.Fatalf("%q: Skip read %d bytes (%v), Capture %d", in, used2(), skipErr, n)
		}
	})
}
