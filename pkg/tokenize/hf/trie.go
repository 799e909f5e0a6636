package hf

// trie is a byte trie over a set of strings, for the longest of them that
// starts at a given place (added tokens) or all of them (Unigram).
type trie struct {
	edges map[uint64]int32 // node<<8 | byte → child node
	val   []int32          // by node: the value of the string ending there, or -1
	first [256]bool        // bytes some string starts with
}

func newTrie() *trie {
	return &trie{edges: make(map[uint64]int32), val: []int32{-1}}
}

func (t *trie) add(s string, v int32) {
	if s == "" {
		return
	}
	t.first[s[0]] = true
	n := int32(0)
	for i := 0; i < len(s); i++ {
		k := uint64(n)<<8 | uint64(s[i])
		c, ok := t.edges[k]
		if !ok {
			c = int32(len(t.val))
			t.val = append(t.val, -1)
			t.edges[k] = c
		}
		n = c
	}
	t.val[n] = v
}

// longest returns the end of the longest string that starts at s[i] and
// its value, or -1.
func (t *trie) longest(s string, i int) (int, int32) {
	end, v := -1, int32(-1)
	if !t.first[s[i]] {
		return end, v
	}
	n := int32(0)
	for j := i; j < len(s); j++ {
		c, ok := t.edges[uint64(n)<<8|uint64(s[j])]
		if !ok {
			break
		}
		n = c
		if t.val[n] >= 0 {
			end, v = j+1, t.val[n]
		}
	}
	return end, v
}

// prefixes calls f with the end and value of every string that starts at
// s[i], shortest first.
func (t *trie) prefixes(s string, i int, f func(end int, v int32)) {
	n := int32(0)
	for j := i; j < len(s); j++ {
		c, ok := t.edges[uint64(n)<<8|uint64(s[j])]
		if !ok {
			return
		}
		n = c
		if t.val[n] >= 0 {
			f(j+1, t.val[n])
		}
	}
}
