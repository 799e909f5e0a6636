package prices

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Match is a model match rule of the price data: exactly one of its
// fields is set. A model id is lowercased and trimmed before it is
// matched, and the string rules compare without regard to case, as
// genai-prices does.
type Match struct {
	// Equals, StartsWith, EndsWith and Contains compare the id with a
	// string.
	Equals     *string `json:"equals,omitempty"`
	StartsWith *string `json:"starts_with,omitempty"`
	EndsWith   *string `json:"ends_with,omitempty"`
	Contains   *string `json:"contains,omitempty"`
	// Regex is a JavaScript regular expression tested on the lowercased
	// id. RE2 has no lookaround; the one form the data uses, a negative
	// lookahead at the start ("^(?!X)Y"), is read as "not ^X and ^Y".
	Regex *string `json:"regex,omitempty"`
	// Or and And combine rules.
	Or  []Match `json:"or,omitempty"`
	And []Match `json:"and,omitempty"`

	re, notRe *regexp.Regexp
	bad       bool // a regex harpe cannot read: never matches
}

// UnmarshalJSON reads a rule and compiles its regular expressions.
func (m *Match) UnmarshalJSON(b []byte) error {
	type plain Match
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*m = Match(p)
	if m.Equals == nil && m.StartsWith == nil && m.EndsWith == nil && m.Contains == nil &&
		m.Regex == nil && m.Or == nil && m.And == nil {
		return fmt.Errorf("match rule %s names none of equals, starts_with, ends_with, contains, regex, or, and", b)
	}
	if m.Regex != nil {
		m.re, m.notRe, m.bad = compileJS(*m.Regex)
	}
	return nil
}

// Matches reports whether the rule matches id (lowercased and trimmed by
// the caller). The first field set decides, in the order or, and, equals,
// starts_with, ends_with, contains, regex, as in genai-prices.
func (m *Match) Matches(id string) bool {
	switch {
	case m.Or != nil:
		for i := range m.Or {
			if m.Or[i].Matches(id) {
				return true
			}
		}
		return false
	case m.And != nil:
		for i := range m.And {
			if !m.And[i].Matches(id) {
				return false
			}
		}
		return true
	case m.Equals != nil:
		return id == strings.ToLower(*m.Equals)
	case m.StartsWith != nil:
		return strings.HasPrefix(id, strings.ToLower(*m.StartsWith))
	case m.EndsWith != nil:
		return strings.HasSuffix(id, strings.ToLower(*m.EndsWith))
	case m.Contains != nil:
		return strings.Contains(id, strings.ToLower(*m.Contains))
	case m.Regex != nil:
		if m.bad {
			return false
		}
		if m.notRe != nil && m.notRe.MatchString(id) {
			return false
		}
		return m.re.MatchString(id)
	}
	return false
}

// unsupported counts the regular expressions of the rule harpe cannot
// read (they never match).
func (m *Match) unsupported() []string {
	var out []string
	if m.bad {
		out = append(out, *m.Regex)
	}
	for i := range m.Or {
		out = append(out, m.Or[i].unsupported()...)
	}
	for i := range m.And {
		out = append(out, m.And[i].unsupported()...)
	}
	return out
}

// compileJS compiles a JavaScript regular expression as RE2. A leading
// negative lookahead "^(?!X)" becomes a second expression ^(?:X) that
// must not match; any other expression RE2 rejects is bad.
func compileJS(src string) (re, notRe *regexp.Regexp, bad bool) {
	rest := src
	if strings.HasPrefix(src, "^(?!") {
		end := closeParen(src, len("^("))
		if end < 0 {
			return nil, nil, true
		}
		var err error
		if notRe, err = regexp.Compile("^(?:" + src[len("^(?!"):end] + ")"); err != nil {
			return nil, nil, true
		}
		rest = "^" + src[end+1:]
	}
	re, err := regexp.Compile(rest)
	if err != nil {
		return nil, nil, true
	}
	return re, notRe, false
}

// closeParen returns the index of the parenthesis that closes the group
// opening at s[open-1], or -1; escapes and character classes are skipped.
func closeParen(s string, open int) int {
	depth := 1
	class := false
	for i := open; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
