// Package yamlsize bounds what a YAML document expands to once its
// aliases are resolved. yaml.v3 guards against alias bombs by counting
// nodes, not bytes: a 1 MiB scalar anchored once and aliased 1,000 times
// passes its guard and decodes to 1 GiB. Parse the document into a
// yaml.Node (which keeps aliases unresolved), check it with [Check], then
// decode the node.
package yamlsize

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Limit is the bound [Check] applies to a document of size bytes: a small
// multiple of its size (aliases that repeat a short anchor a few times
// pass) plus a fixed allowance.
func Limit(size int) int64 { return 4*int64(size) + 1<<20 }

// TooLargeError is a document that expands past its limit.
type TooLargeError struct {
	Size, Limit int64 // the document's size and the limit, in bytes
	Line        int   // the line of the node whose expansion crossed the limit
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("its aliases expand it past %d bytes (%d bytes of YAML; the limit is 4 × its size + 1 MiB)", e.Limit, e.Size)
}

// Check returns a [*TooLargeError] when n, a document of size bytes,
// expands to more than [Limit](size) bytes of scalars and keys (one byte
// more for each node) once every alias is replaced by what it names; its
// Line is that of the node, read in document order, that carries the
// expansion past the limit. It takes time linear in the number of nodes:
// each aliased node's expansion is worked out once.
func Check(n *yaml.Node, size int) error {
	limit := Limit(size)
	c := counter{memo: map[*yaml.Node]int64{}, limit: limit}
	if c.walk(n) {
		return &TooLargeError{Size: int64(size), Limit: limit, Line: c.line}
	}
	return nil
}

type counter struct {
	memo  map[*yaml.Node]int64
	limit int64
	total int64 // the expansion so far, in document order
	line  int
}

// walk adds n's expansion to the running total and reports whether that
// crossed the limit (c.line then says where).
func (c *counter) walk(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case yaml.AliasNode:
		c.total += c.size(n.Alias)
	case yaml.ScalarNode:
		c.total += int64(len(n.Value)) + 1
	default:
		c.total++
		for _, k := range n.Content {
			if c.walk(k) {
				return true
			}
		}
	}
	if c.total > c.limit {
		c.line = n.Line
		return true
	}
	return false
}

// size is the bytes n expands to, saturating just past the limit.
func (c *counter) size(n *yaml.Node) int64 {
	if n == nil {
		return 0
	}
	if s, ok := c.memo[n]; ok {
		return s
	}
	c.memo[n] = c.limit + 1 // a node that contains itself through an alias expands without end
	var s int64
	switch n.Kind {
	case yaml.AliasNode:
		s = c.size(n.Alias)
	case yaml.ScalarNode:
		s = int64(len(n.Value)) + 1
	default:
		s = 1
		for _, k := range n.Content {
			if s += c.size(k); s > c.limit {
				s = c.limit + 1
				break
			}
		}
	}
	c.memo[n] = s
	return s
}
