package transcript

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// benchDoc is an Anthropic messages document of n messages with text
// blocks, escapes and a large tools member, built in memory.
func benchDoc(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"model":"claude-x","max_tokens":1024,"system":"You are \"helpful\".\n","tools":[`)
	for i := range 20 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool%d","description":%q,"input_schema":{"type":"object","properties":{"a":{"type":"string"}}}}`, i, strings.Repeat("does things; ", 20))
	}
	b.WriteString(`],"messages":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n  ")
		}
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		fmt.Fprintf(&b, `{"role":%q,"content":[{"type":"text","text":"message %d: %s \u00e9\t\"quoted\""}]}`, role, i, strings.Repeat("lorem ipsum dolor sit amet ", 12))
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// BenchmarkStreamDoc: a 2,000-message document read through the two
// passes of the streaming reader (probe, then each message).
func BenchmarkStreamDoc(b *testing.B) {
	data := benchDoc(2000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		ts, err := Read(bytes.NewReader(data), "bench.json", "")
		if err != nil || len(ts) != 1 || len(ts[0].Messages) == 0 {
			b.Fatalf("%v, %d transcripts", err, len(ts))
		}
	}
}

// BenchmarkSniff: telling whether a document may be a transcript when
// the key comes after a large value, and when it never comes.
func BenchmarkSniff(b *testing.B) {
	late := []byte(`{"data":{"a":[` + strings.Repeat(`"x\"y",1.5e3,true,null,{"k":"v"},`, 20000) + `0]},"messages":[]}`)
	none := []byte(`{"name":"a","dependencies":{` + strings.Repeat(`"dep":"1.0.0",`, 40000) + `"z":"1"}}`)
	for _, tc := range []struct {
		name string
		in   []byte
		want bool
	}{{"late", late, true}, {"none", none, false}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.in)))
			b.ReportAllocs()
			for b.Loop() {
				if mayBeTranscript(bytes.NewReader(tc.in)) != tc.want {
					b.Fatal("wrong answer")
				}
			}
		})
	}
}
