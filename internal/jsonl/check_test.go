package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// decoderVerdict is what encoding/json's Decoder makes of data read as a
// sequence of values: how many it reads and its first syntax error (the
// offending byte's offset, or len(data) at an unexpected end).
func decoderVerdict(data []byte) (values int, err *SyntaxError) {
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v json.RawMessage
		e := dec.Decode(&v)
		var se *json.SyntaxError
		switch {
		case e == nil:
			values++
			continue
		case e == io.EOF:
			return values, nil
		case errors.As(e, &se):
			return values, &SyntaxError{Offset: se.Offset - 1, Msg: se.Error()}
		case e == io.ErrUnexpectedEOF:
			return values, &SyntaxError{Offset: int64(len(data)), Msg: "unexpected end of input"}
		}
		panic(e)
	}
}

// check feeds data to a Checker in pieces of size n.
func check(data []byte, n int) (values int, err *SyntaxError) {
	var c Checker
	for p := data; len(p) > 0 && c.Err() == nil; {
		k := min(n, len(p))
		took := c.Feed(p[:k])
		p = p[took:]
	}
	c.End()
	return c.Values(), c.Err()
}

func TestCheckerLikeDecoder(t *testing.T) {
	for _, in := range []string{
		``, ` `, `{}`, `[]`, `{"a":1}`, `[1,2,3]`, `{"a":[1,{"b":null}]}`,
		`{"a":1`, `[1,`, `[1,]`, `{"a" 1}`, `{"a":1 "b":2}`, `[1 2]`, `{,}`, `{1:2}`,
		`"abc`, "\"a\x01\"", `"\x"`, `"\u12g4"`, `-`, `-a`, `1.`, `1.x`, `1e`, `1e+`, `1ex`,
		`tru`, `trux`, `fals`, `nul`, `nulx`, `x`, `'a'`, `1 2`, `12{"a":1}`, `"a""b"`, `truefalse`,
		`{} x`, `{}}`, `[1]]`, `{"a":1}` + "\n" + `{"b":`, `01`, `-01`, `1.5e3 `, "\xc3\xa9",
		strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
		strings.Repeat("[", MaxDepth+1),
		strings.Repeat(`{"a":`, MaxDepth+1),
	} {
		wantN, wantErr := decoderVerdict([]byte(in))
		for _, n := range []int{1, 2, 3, 7, 1 << 20} {
			gotN, gotErr := check([]byte(in), n)
			if gotN != wantN || (gotErr == nil) != (wantErr == nil) || gotErr != nil && *gotErr != *wantErr {
				t.Errorf("%.40q in pieces of %d: %d values, %v; want %d, %v", in, n, gotN, gotErr, wantN, wantErr)
			}
		}
	}
}

// FuzzChecker checks the Checker against encoding/json's Decoder: the same
// number of values and the same first error, at the same offset, however
// the input is cut.
func FuzzChecker(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"c\n"}]}`, `[1,2`, `{"a":tru}`, `1 2 "x"`, `{"a":1}{"b"`} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		n = max(1, n%64)
		wantN, wantErr := decoderVerdict(data)
		gotN, gotErr := check(data, n)
		if gotN != wantN || (gotErr == nil) != (wantErr == nil) || gotErr != nil && *gotErr != *wantErr {
			t.Errorf("%q in pieces of %d: %d values, %v; want %d, %v", data, n, gotN, gotErr, wantN, wantErr)
		}
	})
}
