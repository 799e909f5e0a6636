package transcript

import (
	"bytes"
	"fmt"
	"testing"
)

// TestReadAllocsPerRecord: a record read costs its message's allocations
// and no more: a check of each line's error that moved a variable to the
// heap cost one allocation a record (BenchmarkReadClaudeCode: 9,337 →
// 10,383 allocations).
func TestReadAllocsPerRecord(t *testing.T) {
	input := func(n int) []byte {
		var b bytes.Buffer
		for i := range n {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			fmt.Fprintf(&b, `{"role":%q,"content":"message number %d"}`+"\n", role, i)
		}
		return b.Bytes()
	}
	allocs := func(data []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := Read(bytes.NewReader(data), "t.jsonl", ""); err != nil {
				t.Fatal(err)
			}
		})
	}
	perRecord := (allocs(input(3000)) - allocs(input(1000))) / 2000
	t.Logf("%.2f allocations per record", perRecord)
	if perRecord > 12.1 {
		t.Errorf("%.2f allocations per record, want at most 12", perRecord)
	}
}
