package hf

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// A normalizer rewrites a text before it is split.
type normalizer func(s string) string

func parseNormalizer(r json.RawMessage) (normalizer, error) {
	c, err := parseComponent(r, "normalizer")
	if err != nil {
		return nil, err
	}
	what := "normalizer " + c.Type
	switch c.Type {
	case "Sequence":
		var q []normalizer
		for k, sub := range c.Normalizers {
			n, err := parseNormalizer(sub)
			if err != nil {
				return nil, fmt.Errorf("normalizer Sequence[%d]: %v", k, err)
			}
			q = append(q, n)
		}
		if len(q) == 0 {
			return nil, nil
		}
		return func(s string) string {
			for _, n := range q {
				s = n(s)
			}
			return s
		}, nil
	case "NFC":
		return norm.NFC.String, nil
	case "NFD":
		return norm.NFD.String, nil
	case "NFKC":
		return norm.NFKC.String, nil
	case "NFKD":
		return norm.NFKD.String, nil
	case "Lowercase":
		return lowercase, nil
	case "Strip":
		l, rt := c.StripLeft, c.StripRight
		return func(s string) string {
			if l {
				s = strings.TrimLeftFunc(s, isWhitespace)
			}
			if rt {
				s = strings.TrimRightFunc(s, isWhitespace)
			}
			return s
		}, nil
	case "StripAccents":
		return stripAccents, nil
	case "Prepend":
		pre := c.Prepend
		return func(s string) string {
			if s == "" {
				return s
			}
			return pre + s
		}, nil
	case "Replace":
		content := c.Content
		switch {
		case c.Pattern == nil:
			return nil, fmt.Errorf("%s: no pattern", what)
		case c.Pattern.String != nil:
			lit := *c.Pattern.String
			if lit == "" {
				return func(s string) string { return s }, nil
			}
			return func(s string) string { return strings.ReplaceAll(s, lit, content) }, nil
		case c.Pattern.Regex != nil:
			tr, err := translate(*c.Pattern.Regex)
			if err == nil {
				var re *regexp.Regexp
				if re, err = regexp.Compile(tr); err == nil {
					if err := (&regex{re: re}).checkLinear(*c.Pattern.Regex, tr); err != nil {
						return nil, fmt.Errorf("%s: %v", what, err)
					}
					return func(s string) string { return re.ReplaceAllLiteralString(s, content) }, nil
				}
			}
			return nil, fmt.Errorf("%s: pattern %q does not compile with Go's RE2: %v", what, *c.Pattern.Regex, err)
		}
		return nil, fmt.Errorf("%s: pattern is neither String nor Regex", what)
	case "BertNormalizer":
		clean := c.CleanText == nil || *c.CleanText
		chinese := c.HandleChineseChars == nil || *c.HandleChineseChars
		lower := c.Lowercase == nil || *c.Lowercase
		strip := lower
		if c.StripAccents != nil {
			strip = *c.StripAccents
		}
		return func(s string) string {
			if clean {
				s = cleanText(s)
			}
			if chinese {
				s = padChinese(s)
			}
			if strip {
				s = stripAccents(norm.NFD.String(s))
			}
			if lower {
				s = lowercase(s)
			}
			return s
		}, nil
	}
	return nil, fmt.Errorf("%s is not supported by harpe (supported: Sequence, NFC, NFD, NFKC, NFKD, Lowercase, Strip, StripAccents, Prepend, Replace, BertNormalizer)", what)
}

// lowercase is Rust's char::to_lowercase on every character: Go's
// unicode.ToLower, except that U+0130 (İ) becomes "i\u0307".
func lowercase(s string) string {
	if !strings.ContainsRune(s, 'İ') {
		return strings.Map(unicode.ToLower, s)
	}
	var b strings.Builder
	for _, r := range s {
		if r == 'İ' {
			b.WriteString("i\u0307")
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// stripAccents drops the nonspacing marks (Mn), as tokenizers'
// StripAccents does (it does not decompose first).
func stripAccents(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}

// cleanText is BertNormalizer's clean_text: it drops NUL, U+FFFD and
// control characters (Unicode C* but tab, newline and carriage return)
// and turns white space into ' '.
func cleanText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case r == 0 || r == 0xfffd || unicode.Is(unicode.C, r) || r >= 0x80 && isUnassigned(r):
			return -1
		case isWhitespace(r):
			return ' '
		}
		return r
	}, s)
}

// isUnassigned reports a code point in no general category (Cn), which
// Go's unicode.C does not list.
func isUnassigned(r rune) bool {
	for _, t := range unicode.Categories {
		if unicode.Is(t, r) {
			return false
		}
	}
	return true
}

// padChinese puts a space on both sides of every CJK ideograph, as
// BertNormalizer's handle_chinese_chars does.
func padChinese(s string) string {
	var b strings.Builder
	for _, r := range s {
		if isChinese(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isChinese(r rune) bool {
	return 0x4E00 <= r && r <= 0x9FFF || 0x3400 <= r && r <= 0x4DBF || 0x20000 <= r && r <= 0x2A6DF ||
		0x2A700 <= r && r <= 0x2B73F || 0x2B740 <= r && r <= 0x2B81F || 0x2B920 <= r && r <= 0x2CEAF ||
		0xF900 <= r && r <= 0xFAFF || 0x2F800 <= r && r <= 0x2FA1F
}
