package suggest

import (
	"slices"
	"strings"
)

// Nearest returns the one of names closest to name, when it is close
// enough to be a slip: within a third of name's length in edits (at
// least 1, at most 3), or 2 when the letters of name appear in order in
// the candidate ("totl" for "totals": letters left out are a typo of
// another kind). A candidate that name begins (with 3 letters or more)
// counts as 1 edit away. Ties go to the first name in alphabetical order;
// "" when none is close.
func Nearest(name string, names []string) string {
	best, bestD := "", -1
	for _, n := range names {
		d := Distance(name, n)
		if strings.HasPrefix(n, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		if bestD < 0 || d < bestD || d == bestD && n < best {
			best, bestD = n, d
		}
	}
	limit := min(3, max(1, len(name)/3))
	if len(name) >= 3 && isSubsequence(name, best) && name[0] == best[0] {
		limit = max(limit, 2)
	}
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

// isSubsequence reports whether the bytes of short appear in long in order.
func isSubsequence(short, long string) bool {
	i := 0
	for j := 0; i < len(short) && j < len(long); j++ {
		if short[i] == long[j] {
			i++
		}
	}
	return i == len(short)
}

// Complete returns the values (each "value" or "value\tdescription")
// that complete typed, for shell completion. For a comma-separated list
// (list true), the part of typed up to its last comma is kept in front
// of each completion and the names already in it are not offered again.
func Complete(values []string, typed string, list bool) []string {
	prefix, partial := "", typed
	var given []string
	if list {
		if i := strings.LastIndexByte(typed, ','); i >= 0 {
			prefix, partial = typed[:i+1], typed[i+1:]
			given = strings.Split(typed[:i], ",")
		}
	}
	var out []string
	for _, v := range values {
		name, _, _ := strings.Cut(v, "\t")
		if !strings.HasPrefix(name, partial) || slices.Contains(given, name) {
			continue
		}
		out = append(out, prefix+v)
	}
	return out
}
