// Package yamlout writes harpe's reports as YAML with the same field
// names and order as their JSON form, so the json struct tags are the one
// description of every report.
package yamlout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

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
	if err := yaml.Unmarshal(buf.Bytes(), &node); err != nil {
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
