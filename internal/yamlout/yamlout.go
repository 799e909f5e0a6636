// Package yamlout writes harpe's reports as YAML with the same field
// names and order as their JSON form, so the json struct tags are the one
// description of every report.
package yamlout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Write writes v as YAML with the same field names and order as its
// JSON form: v is encoded to JSON first, so the json struct tags are the one
// description of the output.
func Write(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var node yaml.Node
	if err := yaml.Unmarshal(escapeUnreadable(buf.Bytes()), &node); err != nil {
		return err
	}
	plainStyle(&node)
	ye := yaml.NewEncoder(w)
	ye.SetIndent(2)
	if err := ye.Encode(&node); err != nil {
		return err
	}
	return ye.Close()
}

// plainStyle drops the flow and quoting styles a JSON document carries, so
// the YAML reads as block YAML; the encoder still quotes where needed.
func plainStyle(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		n.Style = 0
		// Keep strings that would read back as another type quoted.
		var probe any
		if err := yaml.Unmarshal([]byte(n.Value), &probe); err != nil || fmt.Sprint(probe) != n.Value {
			n.Style = yaml.DoubleQuotedStyle
		}
		if _, isStr := probe.(string); !isStr {
			n.Style = yaml.DoubleQuotedStyle
		}
	} else {
		n.Style = 0
	}
	for _, c := range n.Content {
		plainStyle(c)
	}
}

// escapeUnreadable writes as \uXXXX escapes the characters that JSON
// leaves as they are but YAML's reader refuses in a document or reads as
// something else (DEL, the C1 controls, NEL read as a line break, U+FEFF,
// U+FFFE and U+FFFF): a report quoting such a
// character from its input (an id) failed with "yaml: control characters
// are not allowed", blamed on stdout. They can stand only inside JSON
// strings, where the escape means the same character; the encoder then
// writes them escaped again, in a double-quoted string.
func escapeUnreadable(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x7F || (r >= 0x80 && r <= 0x9F) || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			out = fmt.Appendf(out, "\\u%04x", r)
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}
