package hf

import "testing"

// TestScan: the reader of the vocabulary and merges reads strings and
// whole numbers by JSON's grammar (internal/jsonl's): a control character
// in a string or a number with a leading zero, which it let through
// before, is an error naming the offset.
func TestScan(t *testing.T) {
	tests := []struct {
		name, in string
		read     func(p *scan) (any, error)
		want     any
		err      string
	}{
		{"plain string", ` "abc" `, readStr, "abc", ""},
		{"escapes", `"\u0120a\n\"\\\/"`, readStr, "Ġa\n\"\\/", ""},
		{"surrogate pair", `"\ud83d\ude00"`, readStr, "😀", ""},
		{"lone surrogate", `"\ud83dx"`, readStr, "\uFFFDx", ""},
		{"control character", "\"a\tb\"", readStr, nil, "offset 2: control character in string"},
		{"bad escape", `"a\qb"`, readStr, nil, `offset 2: bad escape \q`},
		{"bad \\u", `"a\u12x4"`, readStr, nil, `offset 2: bad \u escape`},
		{"unterminated", `"abc`, readStr, nil, "offset 4: unterminated string"},
		{"not a string", `12`, readStr, nil, `offset 0: want '"'`},
		{"whole number", ` -42,`, readNum, 42 * -1, ""},
		{"leading zero", `01`, readNum, 0, ""}, // reads 0; the list or object then refuses the 1
		{"fraction", `1.5`, readNum, nil, "offset 0: want a whole number"},
		{"too large", `99999999999999999999`, readNum, nil, "offset 0: want a whole number"},
		{"skip a container", ` {"a":["]"]} ,`, readSkip, `{"a":["]"]}`, ""},
		{"skip a word", `NaN]`, readSkip, "NaN", ""},
		{"skip unterminated", `[1,`, readSkip, nil, "offset 3: unexpected end"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &scan{s: tc.in}
			got, err := tc.read(p)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("got %v, %v; want error %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %#v, %v; want %#v", got, err, tc.want)
			}
		})
	}
	// A leading zero: "01" is 0 then a 1 that is no separator.
	p := &scan{s: `{"a":01}`}
	if err := p.object(func(string) error { _, err := p.int(); return err }); err == nil || err.Error() != "offset 6: want , or }" {
		t.Errorf("leading zero in an object: %v", err)
	}
}

func readStr(p *scan) (any, error) {
	s, err := p.str()
	if err != nil {
		return nil, err
	}
	return s, nil
}

func readNum(p *scan) (any, error) {
	n, err := p.int()
	if err != nil {
		return nil, err
	}
	return n, nil
}

func readSkip(p *scan) (any, error) {
	s, err := p.skip()
	if err != nil {
		return nil, err
	}
	return s, nil
}
