package jsonl

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParserSkip(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		ok      bool
		raw     string // the value's bytes, when ok
		compact bool
	}{
		{"object", `{"a":1,"b":[true,false,null]}`, true, `{"a":1,"b":[true,false,null]}`, true},
		{"surrounding space is not part of the value", " \t{\"a\":\"x y\"}\r\n", true, `{"a":"x y"}`, true},
		{"space inside", `{"a": 1}`, true, `{"a": 1}`, false},
		{"space before a comma", `[1 ,2]`, true, `[1 ,2]`, false},
		{"space in an empty array", `[ ]`, true, `[ ]`, false},
		{"empty object", `{}`, true, `{}`, true},
		{"numbers", `[0,-0,1.5,-2e10,3E+2,4e-1]`, true, `[0,-0,1.5,-2e10,3E+2,4e-1]`, true},
		{"escapes", `"a\"\\\/\b\f\n\r\tA\u00e9"`, true, `"a\"\\\/\b\f\n\r\tA\u00e9"`, true},
		{"leading zero", `01`, false, "", false},
		{"dot without digits", `1.`, false, "", false},
		{"plus sign", `+1`, false, "", false},
		{"bad escape", `"\x"`, false, "", false},
		{"short \\u", `"\u12"`, false, "", false},
		{"control character", "\"a\tb\"", false, "", false},
		{"unterminated string", `"abc`, false, "", false},
		{"trailing comma", `[1,]`, false, "", false},
		{"missing colon", `{"a" 1}`, false, "", false},
		{"key not a string", `{a:1}`, false, "", false},
		{"text after", `{} x`, false, "", false},
		{"two values", `1 2`, false, "", false},
		{"bad literal", `nul`, false, "", false},
		{"nothing", ` `, false, "", false},
		{"unclosed", `[1,[2]`, false, "", false},
		{"too deep for the parser", strings.Repeat("[", 300) + strings.Repeat("]", 300), false, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewParser([]byte(tt.in))
			raw, compact := p.SkipCompact()
			ok := p.End()
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if ok && (string(raw) != tt.raw || compact != tt.compact) {
				t.Fatalf("got %q compact %v, want %q compact %v", raw, compact, tt.raw, tt.compact)
			}
		})
	}
}

func TestParserString(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"plain", `"hello"`, "hello", true},
		{"null", `null`, "", true},
		{"escapes", `"a\"b\\c\/d\be\ff\ng\rh\ti"`, "a\"b\\c/d\be\ff\ng\rh\ti", true},
		{"bmp escape", `"caf\u00E9"`, "café", true},
		{"surrogate pair", `"\ud83d\ude00"`, "😀", true},
		{"lone high surrogate", `"\ud83dx"`, "\uFFFDx", true},
		{"high then not low", `"\ud83d\u0041"`, "\uFFFDA", true},
		{"lone low surrogate", `"\ude00"`, "\uFFFD", true},
		{"raw utf-8 kept", `"né 😀"`, "né 😀", true},
		{"invalid utf-8 goes to encoding/json", "\"a\xffb\"", "", false},
		{"number is not a string", `1`, "", false},
		{"object is not a string", `{}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewParser([]byte(tt.in))
			got := p.String()
			ok := p.End()
			if ok != tt.ok || (ok && got != tt.want) {
				t.Fatalf("got %q ok %v, want %q ok %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParserInt(t *testing.T) {
	tests := []struct {
		name, in string
		want     int
		ok       bool
	}{
		{"zero", `0`, 0, true},
		{"negative", `-42`, -42, true},
		{"null", `null`, 0, true},
		{"18 digits", `999999999999999999`, 999999999999999999, true},
		{"19 digits go to encoding/json", `1000000000000000000`, 0, false},
		{"fraction", `1.0`, 0, false},
		{"exponent", `1e3`, 0, false},
		{"string", `"1"`, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewParser([]byte(tt.in))
			got := p.Int()
			ok := p.End()
			if ok != tt.ok || got != tt.want {
				t.Fatalf("got %d ok %v, want %d ok %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParserObject(t *testing.T) {
	in := `{ "a" : "x" , "b":{"c":[1, 2]}, "d":null }`
	p := NewParser([]byte(in))
	var got []string
	p.Object(func(key []byte) {
		switch string(key) {
		case "a":
			got = append(got, "a="+p.String())
		case "b":
			p.Object(func(key []byte) { got = append(got, string(key)+"="+string(p.Skip())) })
		default:
			got = append(got, string(key)+"="+string(p.Skip()))
		}
	})
	if !p.End() {
		t.Fatal("failed")
	}
	if want := "a=x c=[1, 2] d=null"; strings.Join(got, " ") != want {
		t.Fatalf("got %q, want %q", strings.Join(got, " "), want)
	}
	for _, bad := range []string{`{"a\u0062":1}`, `{"a":1,}`, `{"a":1`, `[1]`} {
		p := NewParser([]byte(bad))
		p.Object(func([]byte) { p.Skip() })
		if p.End() {
			t.Errorf("%s: not failed", bad)
		}
	}
	p = NewParser([]byte(`{"a":1}`))
	p.Object(func([]byte) {}) // consumes nothing
	if p.End() {
		t.Error("a field that consumes nothing does not fail")
	}
}

// FuzzParser checks the parser against encoding/json: a value it skips to
// the end is one json.Valid accepts and the other way round (within its
// depth), it is compact exactly when json.Compact leaves it unchanged, and
// a string decodes as json.Unmarshal decodes it (or, holding invalid
// UTF-8, fails).
func FuzzParser(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00\u00e9\n"`, `[1.5e3, -0, true]`, `{"a" : "b"}`, `"\ud800\udc00\ud800x"`, `01`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > maxDepth {
			return
		}
		p := NewParser(data)
		raw, compact := p.SkipCompact()
		ok := p.End()
		if valid := json.Valid(data); ok != valid {
			t.Fatalf("parser ok %v, json.Valid %v", ok, valid)
		}
		if !ok {
			return
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			t.Fatal(err)
		}
		if same := bytes.Equal(buf.Bytes(), raw); same != compact {
			t.Fatalf("compact %v, json.Compact unchanged %v", compact, same)
		}
		if raw[0] == '"' {
			var want string
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			q := NewParser(data)
			got := q.String()
			ok := q.End()
			if !utf8.Valid(raw) {
				if ok {
					t.Fatalf("String read invalid UTF-8 as %q", got)
				}
				return
			}
			if got != want || !ok {
				t.Fatalf("String %q ok %v, json %q", got, ok, want)
			}
		}
	})
}

// TestSpecial checks the eight-byte test of str against the byte table:
// every byte value at every place in a word of plain bytes.
func TestSpecial(t *testing.T) {
	for c := range 256 {
		for at := range 8 {
			w := []byte("abcdefgh")
			w[at] = byte(c)
			x := uint64(0)
			for k := 7; k >= 0; k-- {
				x = x<<8 | uint64(w[k])
			}
			if got, want := special(x), !plain[c]; got != want {
				t.Fatalf("byte %#x at %d: special %v, want %v", c, at, got, want)
			}
		}
	}
}

func TestParserStringIn(t *testing.T) {
	known := []string{"user", "assistant", "use"}
	tests := []struct{ name, in, want string }{
		{"known", `"assistant"`, "assistant"},
		{"prefix of a known one", `"use"`, "use"},
		{"longer than a known one", `"users"`, "users"},
		{"unknown", `"system"`, "system"},
		{"escaped known", `"us\u0065r"`, "user"},
		{"null", `null`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewParser([]byte(tt.in))
			if got := p.StringIn(known); got != tt.want || !p.End() {
				t.Fatalf("got %q (ok %v), want %q", got, !p.Failed(), tt.want)
			}
		})
	}
	p := NewParser([]byte(`"user`))
	if p.StringIn(known); p.End() {
		t.Fatal("an unterminated string read")
	}
}
