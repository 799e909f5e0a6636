package hf

import (
	"fmt"
	"strings"
	"testing"
)

// benchTokenizer writes a byte-level BPE tokenizer.json of about n
// merges: tokens over a small alphabet built by merging earlier ones,
// one in ten starting with "Ġ" written as the escape \u0120.
func benchTokenizer(n int) []byte {
	toks := []string{}
	seen := map[string]bool{}
	add := func(t string) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		toks = append(toks, t)
		return true
	}
	for c := 'a'; c <= 'z'; c++ {
		add(string(c))
	}
	add("Ġ")
	var merges [][2]string
	x := uint32(1)
	next := func(k int) int { x = x*1664525 + 1013904223; return int(x>>8) % k }
	for len(merges) < n {
		l, r := toks[next(len(toks))], toks[next(min(len(toks), 200))]
		if len(l)+len(r) > 12 || strings.Contains(r, "Ġ") {
			continue
		}
		if add(l + r) {
			merges = append(merges, [2]string{l, r})
		}
	}
	q := func(s string) string { return strings.ReplaceAll(fmt.Sprintf("%q", s), "Ġ", `\u0120`) }
	var b strings.Builder
	b.WriteString(`{"version":"1.0","added_tokens":[],"normalizer":null,"pre_tokenizer":{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":true,"use_regex":true},"model":{"type":"BPE","dropout":null,"unk_token":null,"vocab":{`)
	for i, t := range toks {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "%s: %d", q(t), i)
	}
	b.WriteString("},\n\"merges\":[")
	for i, m := range merges {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(q(m[0] + " " + m[1]))
	}
	b.WriteString("]}}\n")
	return []byte(b.String())
}

// BenchmarkParse: loading a tokenizer.json of 100,000 merges, most of it
// the vocabulary and the merges read by the hand-written reader.
func BenchmarkParse(b *testing.B) {
	data := benchTokenizer(100000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScan: the JSON reading alone of that file: the top level and
// the model by their frames, the vocabulary's strings and numbers, the
// merges' strings.
func BenchmarkScan(b *testing.B) {
	data := string(benchTokenizer(100000))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		_, m, err := readFile(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := parseVocab(m.Vocab); err != nil {
			b.Fatal(err)
		}
		p := &scan{s: m.Merges}
		if err := p.list(func() error { _, err := p.str(); return err }); err != nil {
			b.Fatal(err)
		}
	}
}
