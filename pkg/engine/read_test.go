package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestReadItemsErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string
	}{
		// {"content": "a",} — the '}' is byte 17.
		{"trailing comma", `{"content": "a",}`,
			`items.jsonl:1:17: invalid JSON: invalid character '}' looking for beginning of object key string`},
		// 14 bytes, cut short: the column is just past the end.
		{"cut short", `{"content":"a"`, `items.jsonl:1:15: invalid JSON: unexpected end of JSON input`},
		// 'x' is byte 17 of `{"content":"a"} x`.
		{"text after the object", `{"content":"a"} x`,
			`items.jsonl:1:17: invalid JSON: invalid character 'x' after top-level value`},
		// The tab is byte 14 of {"content":"a<TAB>b"}.
		{"control character in a string", "{\"content\":\"a\tb\"}",
			`items.jsonl:1:14: invalid JSON: invalid character '\t' in string literal`},
		{"bad escape", `{"content":"a\qb"}`,
			`items.jsonl:1:15: invalid JSON: invalid character 'q' in string escape code`},
		{"bare word", `{"content":"a","pinned":yes}`,
			`items.jsonl:1:25: invalid JSON: invalid character 'y' looking for beginning of value`},
		{"bad number", `{"content":"a","priority":01}`,
			`items.jsonl:1:28: invalid JSON: invalid character '1' after object key:value pair`},
		{"NaN literal", `{"content":"a","relevance":NaN}`,
			`items.jsonl:1:28: invalid JSON: invalid character 'N' looking for beginning of value`},
		{"bad unknown field", `{"content":"a","meta":{"x":[1,]}}`,
			`items.jsonl:1:31: invalid JSON: invalid character ']' looking for beginning of value`},
		{"array", `[1,2]`, `items.jsonl:1: not a JSON object (found array)`},
		{"string", `"just text"`, `items.jsonl:1: not a JSON object (found string)`},
		{"number", ` 42`, `items.jsonl:1: not a JSON object (found number)`},
		{"null", `null`, `items.jsonl:1: not a JSON object (found null)`},
		{"missing content", `{"id":"a"}`, `items.jsonl:1: missing "content"`},
		{"empty object", `{}`, `items.jsonl:1: missing "content"`},
		{"number content", `{"content": 42}`, `items.jsonl:1: "content" must be a string, got 42`},
		{"null content", `{"content": null}`, `items.jsonl:1: "content" must be a string, got null`},
		{"negative priority", `{"content":"a","priority":-3}`, `items.jsonl:1: "priority" must be a whole number ≥ 0, got -3`},
		{"fractional priority", `{"content":"a","priority":2.5}`, `items.jsonl:1: "priority" must be a whole number ≥ 0, got 2.5`},
		{"string priority", `{"content":"a","priority":"1"}`, `items.jsonl:1: "priority" must be a whole number ≥ 0, got "1"`},
		{"infinite priority", `{"content":"a","priority":1e999}`, `items.jsonl:1: "priority" must be a whole number ≥ 0, got 1e999`},
		// A whole number past 2^53 is too large, not "not whole" (it was).
		{"huge priority", `{"content":"a","priority":1e300}`, `items.jsonl:1: "priority" must be at most 2^53 (9007199254740992), got 1e300`},
		{"token count 1e18", `{"content":"a","token_count":1e18}`, `items.jsonl:1: "token_count" must be at most 2^53 (9007199254740992), got 1e18`},
		// 2^53 + 1 = 9007199254740993 was read as a float64 and became
		// 9007199254740992 without a word.
		{"token count 2^53+1", `{"content":"a","token_count":9007199254740993}`, `items.jsonl:1: "token_count" must be at most 2^53 (9007199254740992), got 9007199254740993`},
		{"token count of 30 digits", `{"content":"a","token_count":123456789012345678901234567890}`, `items.jsonl:1: "token_count" must be at most 2^53 (9007199254740992), got 123456789012345678901234567890`},
		{"negative token count", `{"content":"a","token_count":-1}`, `items.jsonl:1: "token_count" must be a whole number ≥ 0, got -1`},
		{"bool token count", `{"content":"a","token_count":true}`, `items.jsonl:1: "token_count" must be a whole number ≥ 0, got true`},
		{"infinite relevance", `{"content":"a","relevance":1e999}`, `items.jsonl:1: "relevance" must be a finite number, got 1e999`},
		{"negative infinite relevance", `{"content":"a","relevance":-1e999}`, `items.jsonl:1: "relevance" must be a finite number, got -1e999`},
		{"string relevance", `{"content":"a","relevance":"NaN"}`, `items.jsonl:1: "relevance" must be a finite number, got "NaN"`},
		{"negative utility", `{"content":"a","utility":-0.5}`, `items.jsonl:1: "utility" must be a finite number ≥ 0, got -0.5`},
		{"string pinned", `{"content":"a","pinned":"yes"}`, `items.jsonl:1: "pinned" must be true or false, got "yes"`},
		{"number confidential", `{"content":"a","confidential":1}`, `items.jsonl:1: "confidential" must be true or false, got 1`},
		{"word timestamp", `{"content":"a","timestamp":"yesterday"}`,
			`items.jsonl:1: "timestamp" must be an RFC 3339 string or Unix seconds, got "yesterday"`},
		{"date-only timestamp", `{"content":"a","timestamp":"2026-05-20"}`,
			`items.jsonl:1: "timestamp" must be an RFC 3339 string or Unix seconds, got "2026-05-20"`},
		{"bool timestamp", `{"content":"a","timestamp":true}`,
			`items.jsonl:1: "timestamp" must be an RFC 3339 string or Unix seconds, got true`},
		{"far timestamp", `{"content":"a","timestamp":1e15}`,
			`items.jsonl:1: "timestamp" must be an RFC 3339 string or Unix seconds, got 1e15`},
		{"number dimension", `{"content":"a","dimension":5}`, `items.jsonl:1: "dimension" must be a string, got 5`},
		{"array group", `{"content":"a","group":[]}`, `items.jsonl:1: "group" must be a string, got []`},
		{"object role", `{"content":"a","role":{"x":1}}`, `items.jsonl:1: "role" must be a string, got {"x":1}`},
		{"number id", `{"content":"a","id":7}`, `items.jsonl:1: "id" must be a string, got 7`},
		{"empty id", `{"content":"a","id":""}`, `items.jsonl:1: "id" must not be empty`},
		{"field twice", `{"content":"a","priority":1,"priority":2}`, `items.jsonl:1: field "priority" given twice`},
		{"long value is shortened", `{"content":"a","priority":"` + strings.Repeat("é", 30) + `"}`,
			`items.jsonl:1: "priority" must be a whole number ≥ 0, got "` + strings.Repeat("é", 19) + `…`},
		// {"content":"caf is 15 bytes, so the bad byte is at offset 15.
		{"invalid UTF-8", "{\"content\":\"caf\xe9\"}", `items.jsonl:1: invalid UTF-8 at byte offset 15 (0xe9)`},
		{"invalid UTF-8 in a key", "{\"\xff\":1}", `items.jsonl:1: invalid UTF-8 at byte offset 2 (0xff)`},
		{"duplicate id", "{\"id\":\"a\",\"content\":\"x\"}\n\n{\"id\":\"a\",\"content\":\"y\"}",
			`items.jsonl:3: duplicate id "a" (first at items.jsonl:1)`},
		{"default id collides", "{\"id\":\"L2\",\"content\":\"x\"}\n{\"content\":\"y\"}",
			`items.jsonl:2: duplicate id "L2" (first at items.jsonl:1)`},
		{"error on a later line", "{\"content\":\"x\"}\n{\"content\":\"y\"}\n{\"content\":\"z\",\"priority\":-3}\n",
			`items.jsonl:3: "priority" must be a whole number ≥ 0, got -3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ReadItems(strings.NewReader(tt.input), "items.jsonl", ReadOptions{DefaultPriority: 10})
			if err == nil {
				t.Fatalf("no error, want %s", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestReadItems(t *testing.T) {
	ts := func(s string) *time.Time {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			panic(err)
		}
		return &t
	}
	tests := []struct {
		name  string
		input string
		want  []Item // Raw and Line are checked separately
	}{
		{"empty input", "", nil},
		{"blank lines only", "\n  \n\t\r\n", nil},
		{"defaults", `{"content":"hello"}`, []Item{{ID: "L1", Content: "hello", Priority: 10}}},
		{"every field", `{"id":"x","content":"c","priority":3,"pinned":true,"token_count":7,` +
			`"timestamp":"2026-05-20T16:03:00+02:00","relevance":-0.25,"utility":2,"confidential":false,` +
			`"dimension":"tool","group":"g","role":"tool","extra":{"kept":[1,2]}}`,
			[]Item{{ID: "x", Content: "c", Priority: 3, Pinned: true, TokenCount: n(7),
				Timestamp: ts("2026-05-20T14:03:00Z"), Relevance: n(-0.25), Utility: n(2.0),
				Dimension: "tool", Group: "g", Role: "tool"}}},
		{"nulls are absent", `{"id":null,"content":"c","priority":null,"token_count":null,"timestamp":null,` +
			`"relevance":null,"utility":null,"pinned":null,"dimension":null}`,
			[]Item{{ID: "L1", Content: "c", Priority: 10}}},
		// 3.0 and 1e2 are whole numbers.
		{"whole numbers in other spellings", `{"content":"c","priority":3.0,"token_count":1e2}`,
			[]Item{{ID: "L1", Content: "c", Priority: 3, TokenCount: n(100)}}},
		{"priority zero", `{"content":"c","priority":0}`, []Item{{ID: "L1", Content: "c", Priority: 0}}},
		// 1700000000 s is 2023-11-14T22:13:20Z; .5 adds half a second.
		{"unix seconds", `{"content":"c","timestamp":1700000000.5}`,
			[]Item{{ID: "L1", Content: "c", Priority: 10, Timestamp: ts("2023-11-14T22:13:20.5Z")}}},
		{"unix zero", `{"content":"c","timestamp":0}`,
			[]Item{{ID: "L1", Content: "c", Priority: 10, Timestamp: ts("1970-01-01T00:00:00Z")}}},
		{"escapes", `{"content":"a\nb\u00e9\ud83d\ude00 \"q\" \\ \/ \t"}`,
			[]Item{{ID: "L1", Content: "a\nbé😀 \"q\" \\ / \t", Priority: 10}}},
		// A lone surrogate decodes to U+FFFD, as encoding/json does.
		{"lone surrogate", `{"content":"x\ud800y"}`, []Item{{ID: "L1", Content: "x\uFFFDy", Priority: 10}}},
		{"escaped key", `{"con\u0074ent":"c"}`, []Item{{ID: "L1", Content: "c", Priority: 10}}},
		{"crlf and blank lines keep line numbers", "\r\n{\"content\":\"a\"}\r\n\r\n{\"content\":\"b\"}\r\n",
			[]Item{{ID: "L2", Content: "a", Priority: 10}, {ID: "L4", Content: "b", Priority: 10}}},
		{"white space around", " \t{ \"content\" : \"a\" } \t", []Item{{ID: "L1", Content: "a", Priority: 10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, skipped, err := ReadItems(strings.NewReader(tt.input), "in", ReadOptions{DefaultPriority: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(skipped) != 0 {
				t.Errorf("skipped %v", skipped)
			}
			if len(items) != len(tt.want) {
				t.Fatalf("%d items, want %d", len(items), len(tt.want))
			}
			for i := range items {
				got := items[i]
				got.Raw, got.Line = nil, 0
				if g, w := describe(got), describe(tt.want[i]); g != w {
					t.Errorf("item %d:\ngot  %s\nwant %s", i, g, w)
				}
			}
		})
	}
}

// describe prints an item with its optional fields dereferenced.
func describe(i Item) string {
	var b strings.Builder
	b.WriteString(strings.Join([]string{i.ID, i.Content, i.Dimension, i.Group, i.Role}, "|"))
	b.WriteString("|" + strings.TrimSpace(strings.Join([]string{
		boolStr(i.Pinned), boolStr(i.Confidential)}, ",")))
	b.WriteString("|p" + itoa(i.Priority))
	if i.TokenCount != nil {
		b.WriteString("|tc" + itoa(*i.TokenCount))
	}
	if i.Timestamp != nil {
		b.WriteString("|ts" + i.Timestamp.UTC().Format(time.RFC3339Nano))
	}
	if i.Relevance != nil {
		js, _ := json.Marshal(*i.Relevance)
		b.WriteString("|rel" + string(js))
	}
	if i.Utility != nil {
		js, _ := json.Marshal(*i.Utility)
		b.WriteString("|ut" + string(js))
	}
	return b.String()
}

func boolStr(b bool) string {
	if b {
		return "T"
	}
	return "F"
}

func itoa(n int) string { js, _ := json.Marshal(n); return string(js) }

func TestReadItemsRawAndLines(t *testing.T) {
	input := "{\"content\":\"a\",  \"extra\": [1, 2.50, {\"k\": \"\\u00e9\"}] }\r\n\n{\"z\":1,\"content\":\"b\"}"
	items, _, err := ReadItems(strings.NewReader(input), "in", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The "\r" of a CRLF ending stays in Raw, so --emit kept writes the
	// input's bytes back exactly.
	if string(items[0].Raw) != "{\"content\":\"a\",  \"extra\": [1, 2.50, {\"k\": \"\\u00e9\"}] }\r" || items[0].Line != 1 {
		t.Errorf("item 0: raw %q line %d", items[0].Raw, items[0].Line)
	}
	if string(items[1].Raw) != `{"z":1,"content":"b"}` || items[1].Line != 3 {
		t.Errorf("item 1: raw %q line %d", items[1].Raw, items[1].Line)
	}
}

func TestSkipInvalid(t *testing.T) {
	input := "{\"content\":\"a\"}\n{\"content\":1}\nnot json\n{\"id\":\"L1\",\"content\":\"dup\"}\n{\"content\":\"e\"}\n"
	items, skipped, err := ReadItems(strings.NewReader(input), "x.jsonl", ReadOptions{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, i := range items {
		ids = append(ids, i.ID)
	}
	if strings.Join(ids, ",") != "L1,L5" {
		t.Errorf("ids %v, want L1,L5", ids)
	}
	want := []Skipped{
		{2, `x.jsonl:2: "content" must be a string, got 1`},
		{3, `x.jsonl:3:2: invalid JSON: invalid character 'o' in literal null (expecting 'u')`},
		{4, `x.jsonl:4: duplicate id "L1" (first at x.jsonl:1)`},
	}
	if len(skipped) != len(want) {
		t.Fatalf("skipped %v, want %v", skipped, want)
	}
	for i := range want {
		if skipped[i] != want[i] {
			t.Errorf("skipped[%d] = %v, want %v", i, skipped[i], want[i])
		}
	}
}

func TestItemReaderSeveralInputs(t *testing.T) {
	r := NewItemReader(ReadOptions{DefaultPriority: 10})
	if err := r.Read(context.Background(), strings.NewReader("{\"content\":\"a\"}\n{\"id\":\"x\",\"content\":\"b\"}\n"), "a.jsonl"); err != nil {
		t.Fatal(err)
	}
	// b.jsonl's first line is line 3 of the two read as one stream.
	if err := r.Read(context.Background(), strings.NewReader("{\"content\":\"c\"}\n"), "b.jsonl"); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, i := range r.Items() {
		ids = append(ids, i.ID)
	}
	if strings.Join(ids, ",") != "L1,x,L3" || r.Items()[2].Line != 1 {
		t.Errorf("ids %v line %d, want L1,x,L3 and line 1", ids, r.Items()[2].Line)
	}
	err := r.Read(context.Background(), strings.NewReader("\n{\"id\":\"x\",\"content\":\"d\"}\n"), "c.jsonl")
	if err == nil || err.Error() != `c.jsonl:2: duplicate id "x" (first at a.jsonl:2)` {
		t.Errorf("err %v", err)
	}
}

// TestHugeLine reads a 50 MB content in one line and counts it: "abcd efgh "
// five million times is 10,000,000 pieces and 50,000,000 characters, so
// the estimate is max(10,000,000, 12,500,000) = 12,500,000.
func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB line")
	}
	content := strings.Repeat("abcd efgh ", 5_000_000)
	var b bytes.Buffer
	b.WriteString(`{"id":"big","content":"`)
	b.WriteString(content)
	b.WriteString("\"}\n{\"content\":\"small\"}\n")
	items, _, err := ReadItems(&b, "big.jsonl", ReadOptions{DefaultPriority: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || len(items[0].Content) != 50_000_000 || items[0].Content != content {
		t.Fatalf("%d items, content length %d", len(items), len(items[0].Content))
	}
	r, err := Synthesize(context.Background(), items, Budget{Total: 20_000_000}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Kept[0].Tokens != 12_500_000 {
		t.Errorf("tokens %d, want 12500000", r.Kept[0].Tokens)
	}
}

// FuzzReadItems checks the hand-written parser against encoding/json: a
// line it accepts (or rejects for a reason other than syntax) is valid
// JSON, a line it calls invalid JSON is not, and the content it decodes is
// the content encoding/json decodes. A byte order mark that begins the
// input is not part of the line.
func FuzzReadItems(f *testing.F) {
	for _, s := range []string{
		`{"content":"a"}`, `{"id":"x","content":"b\n\u00e9","priority":3,"pinned":true}`,
		`{"content":"a","meta":{"x":[1,2.5e3,-0,{"y":null}]},"timestamp":"2026-05-20T14:03:00Z"}`,
		`{"content":"a","priority":-1}`, `[1]`, `{"content":"\ud800"}`, `{"content":1e999}`,
		"{\"content\":\"\xff\"}", `{"content":"a"`, `{"a":1,"content":"x",}`, `{"content":"x","relevance":1E+2}`,
		"\xef\xbb\xbf{\"content\":\"a\"}", "\xef\xbb\xbf", `{"content":"a","timestamp":1683000000000}`,
		`{"content":"a","timestamp":-100000000000.5}`,
		`{"content":"a","source":"s","description":"d","max_chars":4000}`, `{"content":"a","max_chars":1.5}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") {
			return
		}
		items, _, err := ReadItems(strings.NewReader(line), "f", ReadOptions{DefaultPriority: 10})
		line = strings.TrimPrefix(line, bom)
		valid := json.Valid([]byte(line))
		if err != nil {
			msg := err.Error()
			syntax := strings.Contains(msg, "invalid JSON")
			if !utf8.ValidString(line) {
				if !strings.Contains(msg, "invalid UTF-8") {
					t.Fatalf("invalid UTF-8 line: %s", msg)
				}
				return
			}
			if syntax == valid {
				t.Fatalf("json.Valid %v but %s", valid, msg)
			}
			return
		}
		if len(items) == 0 {
			if strings.Trim(line, " \t") != "" {
				t.Fatalf("no item and no error for %q", line)
			}
			return
		}
		if !valid {
			t.Fatalf("accepted invalid JSON %q", line)
		}
		var ref struct {
			Content string `json:"content"`
		}
		if err := json.Unmarshal([]byte(line), &ref); err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if ref.Content != items[0].Content {
			t.Fatalf("content %q, encoding/json %q", items[0].Content, ref.Content)
		}
		if string(items[0].Raw) != line {
			t.Fatalf("raw %q", items[0].Raw)
		}
	})
}

// TestWholeNumberExact: whole numbers are read exactly up to 2^53, in any
// spelling JSON allows; the values are worked out by hand.
func TestWholeNumberExact(t *testing.T) {
	for _, tc := range []struct {
		raw      string
		want     int
		tooLarge bool
		ok       bool
	}{
		{"0", 0, false, true},
		{"9007199254740992", 1 << 53, false, true}, // 2^53 itself
		{"0009007199254740992", 1 << 53, false, true},
		{"9007199254740993", 0, true, false},     // 2^53 + 1
		{"99999999999999999999", 0, true, false}, // overflows int64 too
		{"1e15", 1_000_000_000_000_000, false, true},
		{"3.0", 3, false, true},
		{"9.007199254740992e15", 1 << 53, false, true},
		{"1e18", 0, true, false},
		{"2.5", 0, false, false},
		{"-1", 0, false, false},
		{"1e999", 0, false, false},
	} {
		n, tooLarge, ok := wholeNumber([]byte(tc.raw))
		if n != tc.want || tooLarge != tc.tooLarge || ok != tc.ok {
			t.Errorf("wholeNumber(%s) = %d, %v, %v; want %d, %v, %v", tc.raw, n, tooLarge, ok, tc.want, tc.tooLarge, tc.ok)
		}
	}
}
