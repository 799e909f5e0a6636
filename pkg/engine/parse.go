package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// The item line parser is written by hand: it validates the line as
// strictly as encoding/json does, decodes the known fields once, and skips
// the others without building anything. On a syntax error it asks
// encoding/json for the message and the column, so the wording is the
// familiar one.

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// Bits for the known fields, to catch a field given twice.
const (
	fID = 1 << iota
	fContent
	fPriority
	fPinned
	fTokenCount
	fTimestamp
	fRelevance
	fUtility
	fConfidential
	fDimension
	fGroup
	fRole
	fSource
	fDescription
	fMaxChars
)

// Timestamps must fall within the years RFC 3339 can write.
var (
	minUnix = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	maxUnix = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
)

type parser struct {
	b []byte
	i int
	// timestamp, when set, reads the timestamp strings that are not
	// RFC 3339 ([ReadOptions.Timestamp]).
	timestamp func(string) (time.Time, error)
	// shared is set when b is the item's own copy of its line ([Item.Raw]),
	// which nothing ever writes to: strings without escapes then point into
	// it instead of being copied, so a 50 MB content is held once, not twice.
	shared bool
}

// sub returns b[start:end] as a string, sharing b's memory when allowed.
func (p *parser) sub(start, end int) string {
	if p.shared && end > start {
		return unsafe.String(&p.b[start], end-start)
	}
	return string(p.b[start:end])
}

// parseItem decodes one non-blank line into it. The returned error has
// Msg and Col set; the caller adds the name and line. A line that is not
// valid JSON gets the syntax error, even when a field before the bad spot
// already had a wrong type.
func parseItem(line []byte, it *Item, opts *ReadOptions, shared bool) *LineError {
	if name, _ := jsonl.WideEncoding(line); name != "" {
		// UTF-16 or UTF-32 with its byte order mark: say so, rather
		// than quote the mark as a bad character.
		return &LineError{Msg: jsonl.UTF8Message(line, 0)}
	}
	lerr := parseItemFields(line, it, opts, shared)
	if lerr != nil && lerr.Col == 0 && !strings.HasPrefix(lerr.Msg, "invalid UTF-8") && !json.Valid(line) {
		return syntaxError(line, 0)
	}
	return lerr
}

func parseItemFields(line []byte, it *Item, opts *ReadOptions, shared bool) *LineError {
	if off := jsonl.InvalidUTF8(line); off >= 0 {
		return &LineError{Msg: jsonl.UTF8Message(line, off)}
	}
	defaultPriority := opts.DefaultPriority
	p := parser{b: line, shared: shared, timestamp: opts.Timestamp}
	p.ws()
	if p.i == len(p.b) { // the caller skips blank lines; this is a guard
		return syntaxError(line, p.i)
	}
	if p.b[p.i] != '{' {
		if json.Valid(line) {
			return &LineError{Msg: "not a JSON object (found " + jsonl.Kind(p.b[p.i:]) + ")"}
		}
		return syntaxError(line, p.i)
	}
	p.i++
	it.Priority = defaultPriority
	var seen int
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
	} else {
		for {
			p.ws()
			key, ok := p.keyString()
			if !ok {
				return syntaxError(line, p.i)
			}
			p.ws()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return syntaxError(line, p.i)
			}
			p.i++
			p.ws()
			if p.i >= len(p.b) {
				return syntaxError(line, p.i)
			}
			bit, lerr := p.field(key, it)
			if lerr != nil {
				if lerr == errLineSyntax {
					return syntaxError(line, p.i)
				}
				return lerr
			}
			if bit != 0 {
				if seen&bit != 0 {
					return &LineError{Msg: fmt.Sprintf("field %q given twice", knownKey(key))}
				}
				seen |= bit
			}
			p.ws()
			if p.i >= len(p.b) {
				return syntaxError(line, p.i)
			}
			if p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.b[p.i] == '}' {
				p.i++
				break
			}
			return syntaxError(line, p.i)
		}
	}
	p.ws()
	if p.i != len(p.b) {
		return syntaxError(line, p.i)
	}
	if seen&fContent == 0 {
		return &LineError{Msg: `missing "content"`}
	}
	return nil
}

// errLineSyntax marks a syntax error found while decoding a field; the
// caller turns it into a full message.
var errLineSyntax = &LineError{Msg: "syntax"}

// field decodes the value of key at p.i into it and returns the field's
// bit (0 for an unknown field, which is only validated).
func (p *parser) field(keyb []byte, it *Item) (int, *LineError) {
	start := p.i
	key := knownKey(keyb)
	switch key {
	case "content":
		if p.b[start] != '"' {
			return 0, p.typeError(key, "must be a string", start)
		}
		s, ok := p.str()
		if !ok {
			return 0, errLineSyntax
		}
		it.Content = s
		return fContent, nil
	case "id", "dimension", "group", "role", "source", "description":
		return p.stringField(key, start, it)
	case "pinned", "confidential":
		return p.boolField(key, start, it)
	case "priority", "token_count", "max_chars":
		return p.wholeField(key, start, it)
	case "relevance", "utility":
		return p.numberField(key, start, it)
	case "timestamp":
		return p.timestampField(start, it)
	}
	if !p.skip() {
		return 0, errLineSyntax
	}
	return 0, nil
}

// stringField decodes "id", "dimension", "group", "role", "source" or
// "description" (a string or null; an id must not be empty).
func (p *parser) stringField(key string, start int, it *Item) (int, *LineError) {
	c := p.b[start]
	null := c == 'n'
	var s string
	if !null {
		if c != '"' {
			return 0, p.typeError(key, "must be a string", start)
		}
		var ok bool
		if s, ok = p.str(); !ok {
			return 0, errLineSyntax
		}
	} else if !p.skip() {
		return 0, errLineSyntax
	}
	switch key {
	case "id":
		if !null && s == "" {
			return 0, &LineError{Msg: `"id" must not be empty`}
		}
		it.ID = s
		return fID, nil
	case "dimension":
		it.Dimension = s
		return fDimension, nil
	case "group":
		it.Group = s
		return fGroup, nil
	case "source":
		it.Source = s
		return fSource, nil
	case "description":
		it.Description = s
		return fDescription, nil
	default:
		it.Role = s
		return fRole, nil
	}
}

// boolField decodes "pinned" or "confidential" (true, false or null).
func (p *parser) boolField(key string, start int, it *Item) (int, *LineError) {
	if !p.skip() {
		return 0, errLineSyntax
	}
	raw := p.b[start:p.i]
	var v bool
	switch string(raw) {
	case "true":
		v = true
	case "false", "null":
	default:
		return 0, &LineError{Msg: fmt.Sprintf("%q must be true or false, got %s", key, shorten(raw))}
	}
	if key == "pinned" {
		it.Pinned = v
		return fPinned, nil
	}
	it.Confidential = v
	return fConfidential, nil
}

// wholeField decodes "priority", "token_count" or "max_chars" (a whole
// number from 0 to 2^53, or null).
func (p *parser) wholeField(key string, start int, it *Item) (int, *LineError) {
	if !p.skip() {
		return 0, errLineSyntax
	}
	raw := p.b[start:p.i]
	bit := fPriority
	switch key {
	case "token_count":
		bit = fTokenCount
	case "max_chars":
		bit = fMaxChars
	}
	if raw[0] == 'n' {
		return bit, nil
	}
	n, tooLarge, ok := wholeNumber(raw)
	if tooLarge {
		return 0, &LineError{Msg: fmt.Sprintf("%q must be at most 2^53 (9007199254740992), got %s", key, shorten(raw))}
	}
	if !ok {
		return 0, &LineError{Msg: fmt.Sprintf("%q must be a whole number ≥ 0, got %s", key, shorten(raw))}
	}
	switch key {
	case "priority":
		it.Priority = n
	case "max_chars":
		it.MaxChars = &n
	default:
		it.TokenCount = &n
	}
	return bit, nil
}

// numberField decodes "relevance" (a finite number) or "utility" (a
// finite number ≥ 0), or null.
func (p *parser) numberField(key string, start int, it *Item) (int, *LineError) {
	if !p.skip() {
		return 0, errLineSyntax
	}
	raw := p.b[start:p.i]
	bit, want := fRelevance, "must be a finite number"
	if key == "utility" {
		bit, want = fUtility, "must be a finite number ≥ 0"
	}
	if raw[0] == 'n' {
		return bit, nil
	}
	f, ok := finiteNumber(raw)
	if !ok || (key == "utility" && f < 0) {
		return 0, &LineError{Msg: fmt.Sprintf("%q %s, got %s", key, want, shorten(raw))}
	}
	if key == "relevance" {
		it.Relevance = &f
	} else {
		it.Utility = &f
	}
	return bit, nil
}

// timestampField decodes "timestamp": an RFC 3339 string (else one the
// reader's timestamp parser takes), Unix seconds or milliseconds, or
// null.
func (p *parser) timestampField(start int, it *Item) (int, *LineError) {
	var t time.Time
	ok := false
	if p.b[start] == '"' {
		s, sok := p.str()
		if !sok {
			return 0, errLineSyntax
		}
		var err error
		t, err = time.Parse(time.RFC3339Nano, s)
		ok = err == nil
		if !ok && p.timestamp != nil {
			if t, err = p.timestamp(s); err != nil {
				return 0, &LineError{Msg: fmt.Sprintf(`"timestamp": %v`, err)}
			}
			ok = true
		}
	} else {
		if !p.skip() {
			return 0, errLineSyntax
		}
		if p.b[start] == 'n' {
			return fTimestamp, nil
		}
		if f, fok := finiteNumber(p.b[start:p.i]); fok {
			t, ok = unixTime(p.b[start:p.i], f)
		}
	}
	if !ok {
		return 0, &LineError{Msg: fmt.Sprintf(`"timestamp" must be an RFC 3339 string or Unix seconds, got %s`, shorten(p.b[start:p.i]))}
	}
	it.Timestamp = &t
	return fTimestamp, nil
}

// knownKey returns the name of a known field as a constant string (no
// allocation), or "" for any other key.
func knownKey(k []byte) string {
	switch string(k) {
	case "id":
		return "id"
	case "content":
		return "content"
	case "priority":
		return "priority"
	case "pinned":
		return "pinned"
	case "token_count":
		return "token_count"
	case "timestamp":
		return "timestamp"
	case "relevance":
		return "relevance"
	case "utility":
		return "utility"
	case "confidential":
		return "confidential"
	case "dimension":
		return "dimension"
	case "group":
		return "group"
	case "role":
		return "role"
	case "source":
		return "source"
	case "description":
		return "description"
	case "max_chars":
		return "max_chars"
	}
	return ""
}

// typeError skips the value at start and reports that key has the wrong
// type, quoting the value.
func (p *parser) typeError(key, want string, start int) *LineError {
	if !p.skip() {
		return errLineSyntax
	}
	return &LineError{Msg: fmt.Sprintf("%q %s, got %s", key, want, shorten(p.b[start:p.i]))}
}

// shorten quotes a JSON value in a message, cutting it after 40 bytes (at
// a character boundary).
func shorten(raw []byte) string {
	const limit = 40
	if len(raw) <= limit {
		return string(raw)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "…"
}

// syntaxError describes invalid JSON in line, with encoding/json's wording
// and column; pos is where this parser stopped, used only if encoding/json
// disagrees.
func syntaxError(line []byte, pos int) *LineError {
	var raw json.RawMessage
	err := json.Unmarshal(line, &raw)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		col := int(se.Offset)
		if se.Error() == "unexpected end of JSON input" {
			col = len(line) + 1
		}
		return &LineError{Col: max(col, 1), Msg: "invalid JSON: " + se.Error()}
	}
	return &LineError{Col: pos + 1, Msg: "invalid JSON"}
}

// maxWhole is the largest whole number an item field takes: 2^53, the
// largest up to which every whole number is exact as a float64 (sums,
// ratios and costs are computed in float64 too).
const maxWhole = 1 << 53

// wholeNumber reads a JSON number that is a whole number from 0 to 2^53.
// 3, 3.0 and 1e3 are whole; 2.5, -1 and 1e999 are not. Digits alone
// are read exactly, however many: 9007199254740993 (2^53 + 1) is too
// large, not rounded to 2^53. tooLarge tells a whole number past 2^53 from
// one that is not whole.
func wholeNumber(raw []byte) (n int, tooLarge, ok bool) {
	if len(raw) > 0 && raw[0] >= '0' && raw[0] <= '9' {
		digits := true
		for _, c := range raw {
			if c < '0' || c > '9' {
				digits = false
				break
			}
		}
		if digits {
			for _, c := range raw {
				n = n*10 + int(c-'0')
				if n > maxWhole {
					return 0, true, false
				}
			}
			return n, false, true
		}
	}
	f, ok := finiteNumber(raw)
	if !ok || f < 0 || f != math.Trunc(f) { // 1e999 is not finite
		return 0, false, false
	}
	if f > maxWhole {
		return 0, true, false
	}
	return int(f), false, true
}

// finiteNumber reads a JSON number that fits a finite float64.
// MillisFrom is the magnitude from which a whole-number timestamp is read
// as Unix milliseconds rather than seconds: 10^11 seconds is past the year
// 5138, while 10^11 milliseconds is March 1973. A number written with a
// fraction or an exponent is always seconds. Every command reads items
// this way.
const MillisFrom = 1e11

// unixTime reads the number raw (worth f) as a Unix time: seconds, or
// milliseconds for a whole number of magnitude ≥ [MillisFrom]; in UTC, and
// within the years 0 to 9999.
func unixTime(raw []byte, f float64) (time.Time, bool) {
	if math.Abs(f) >= MillisFrom && !bytes.ContainsAny(raw, ".eE") {
		ms, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return time.Time{}, false
		}
		sec := ms / 1000
		if ms%1000 < 0 {
			sec--
		}
		if sec < minUnix || sec > maxUnix {
			return time.Time{}, false
		}
		return time.UnixMilli(ms).UTC(), true
	}
	if f < float64(minUnix) || f > float64(maxUnix) {
		return time.Time{}, false
	}
	sec := math.Floor(f)
	nsec := math.Round((f - sec) * 1e9)
	return time.Unix(int64(sec), int64(nsec)).UTC(), true
}

func finiteNumber(raw []byte) (float64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// The scanning is internal/jsonl's; these wrappers move p.i.

func (p *parser) ws() { p.i = jsonl.SkipSpace(p.b, p.i) }

// keyString reads an object key at p.i, without copying it when it has
// no escapes.
func (p *parser) keyString() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	start := p.i + 1
	end, escaped, _, ok := jsonl.ScanString(p.b, p.i)
	p.i = end
	if !ok {
		return nil, false
	}
	if escaped {
		return []byte(jsonl.Unquote(p.b[start : end-1])), true
	}
	return p.b[start : end-1], true
}

// str decodes the string at p.i (which is '"') and moves past it. Without
// escapes the string shares the line's memory when p.shared allows.
func (p *parser) str() (string, bool) {
	start := p.i + 1
	end, escaped, _, ok := jsonl.ScanString(p.b, p.i)
	p.i = end
	if !ok {
		return "", false
	}
	if escaped {
		return jsonl.Unquote(p.b[start : end-1]), true
	}
	return p.sub(start, end-1), true
}

// skip moves past one JSON value of any kind, validating it.
func (p *parser) skip() bool {
	end, _, ok := jsonl.SkipValue(p.b, p.i, maxDepth)
	p.i = end
	return ok
}
