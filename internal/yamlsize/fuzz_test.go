package yamlsize

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// FuzzCheck: Check ends on any document yaml.v3 parses, aliases that
// name their own ancestors included.
func FuzzCheck(f *testing.F) {
	f.Add("a: &x [1, 2]\nb: *x\n")
	f.Add("a: &a [*a]\n")
	f.Fuzz(func(t *testing.T, doc string) {
		var n yaml.Node
		if yaml.Unmarshal([]byte(doc), &n) != nil {
			return
		}
		_ = Check(&n, len(doc))
	})
}
