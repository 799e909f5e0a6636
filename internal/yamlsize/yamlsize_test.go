package yamlsize

import (
	"errors"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func parse(t *testing.T, doc string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		t.Fatal(err)
	}
	return &n
}

// TestCheck: a document expands to its scalars plus one byte per node,
// aliases counted as what they name; the limit is 4 × size + 1 MiB.
func TestCheck(t *testing.T) {
	big := strings.Repeat("x", 1<<20) // 1 MiB
	bomb := "a: &b \"" + big + "\"\nc:\n" + strings.Repeat("- *b\n", 10)
	tests := []struct {
		name string
		doc  string
		bad  bool
	}{
		{"plain", "a: 1\nb: [x, y]\n", false},
		// 3 short aliases of a short anchor: far under 1 MiB.
		{"few aliases", "a: &x hello\nb: *x\nc: *x\nd: *x\n", false},
		// 1 MiB + 10 aliases of it: 11 MiB against 4 × 1 MiB + 1 MiB.
		{"alias bomb", bomb, true},
		// Nested: 20 levels, each a list of two aliases of the one
		// below, start with 1 KiB: 2^20 KiB = 1 GiB.
		{"billion laughs", laughs(20), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(parse(t, tc.doc), len(tc.doc))
			var tl *TooLargeError
			if tc.bad != errors.As(err, &tl) {
				t.Fatalf("error %v, want too large: %v", err, tc.bad)
			}
			if tc.bad && tl.Line == 0 {
				t.Errorf("no line in %+v", tl)
			}
		})
	}
}

func laughs(n int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 \"" + strings.Repeat("x", 1024) + "\"\n")
	for i := 1; i <= n; i++ {
		b.WriteString("l" + itoa(i) + ": &l" + itoa(i) + " [*l" + itoa(i-1) + ", *l" + itoa(i-1) + "]\n")
	}
	return b.String()
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
