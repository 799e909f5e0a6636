package transcript_test

import (
	"os"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Items of two transcripts in one stream: each id and group gets its
// transcript's number, and "<" stays as it is.
func ExampleWriteItems() {
	items := [][]transcript.Item{
		{{ID: "m0", Content: "hi", Role: "user", Dimension: "user", File: "a.jsonl"}},
		{{ID: "m2", Content: "<ok>", Role: "tool", Group: "c1", Dimension: "tool:ls", File: "b.jsonl", Message: 2}},
	}
	if err := transcript.WriteItems(os.Stdout, items); err != nil {
		panic(err)
	}
	// Output:
	// {"id":"1.m0","content":"hi","role":"user","dimension":"user","file":"a.jsonl","message":0}
	// {"id":"2.m2","content":"<ok>","role":"tool","group":"2.c1","dimension":"tool:ls","file":"b.jsonl","message":2}
}
