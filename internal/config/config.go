// Package config reads harpe.yaml: a YAML mapping whose keys are read
// without regard to case ("Budget" is "budget"), one level of sections
// ("replay:" holding the replay command's keys), with the line of every
// key kept for messages.
//
// The file is read by harpe's own guards first (a regular file of at most
// MaxSize, see ReadFile), parsed with gopkg.in/yaml.v3, whose node tree
// gives every key's line and shows any alias (refused: no real
// configuration needs them, and an alias of a large value repeated a
// thousand times would make a small file expand to gigabytes); the values
// are then handed to a viper instance of their own, which answers every
// lookup: keys as a dotted path ("replay.budget"), without regard to
// case, a key written dotted at the top level ("replay.budget: 5") found
// too. A value that is null counts as unset. The order of precedence
// (flag, HARPE_* variable, the working directory's file, the user's) is
// the caller's: each File is one file.
package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/viper"
	"gopkg.in/yaml.v3"
)

// File is a parsed configuration file.
type File struct {
	// Path is the file read ("" when there is none): messages name it.
	Path string
	// values holds the file's values, keys lowercased; viper answers the
	// lookups (Get, IsSet).
	values *viper.Viper
	// Lines maps each key of the top level, and of the sections one level
	// down, lowercased and dotted ("policy", "replay.distill-cmd"), to its
	// line in the file. The first of two equal keys wins.
	Lines map[string]int
}

// AliasError is an alias (or anchor) found in a configuration file.
type AliasError struct {
	Line int
}

func (e *AliasError) Error() string {
	return fmt.Sprintf("line %d: YAML anchors and aliases are not allowed in a configuration file", e.Line)
}

// Parse reads data, a YAML document whose top level is a mapping (or
// nothing at all). Its errors are yaml.v3's, or an *AliasError.
func Parse(data []byte) (*File, error) {
	f := &File{values: viper.New(), Lines: map[string]int{}}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	if len(root.Content) == 0 {
		return f, nil
	}
	if line := firstAlias(&root); line > 0 {
		return nil, &AliasError{Line: line}
	}
	doc := root.Content[0]
	var values map[string]any
	if err := doc.Decode(&values); err != nil {
		return nil, err
	}
	// Keys lowercased here, in lists too (viper lowercases those of
	// mappings only), and keys that are not text (1: x) made text.
	lowerKeys(values)
	if err := f.values.MergeConfigMap(values); err != nil {
		return nil, err
	}
	f.indexLines(doc, "")
	return f, nil
}

// ParseFile is [Parse] of data, read from the file at path: the File
// keeps path (see [File.Where]), and the errors begin with it, and with
// the line of an alias: "harpe.yaml:3: YAML anchors and aliases are not
// allowed in a configuration file".
func ParseFile(path string, data []byte) (*File, error) {
	f, err := Parse(data)
	if ae := (*AliasError)(nil); errors.As(err, &ae) {
		return nil, fmt.Errorf("%s:%d: YAML anchors and aliases are not allowed in a configuration file", path, ae.Line)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	f.Path = path
	return f, nil
}

// Where names key's place in the file, "harpe.yaml:3", or the file alone
// when key is not in it.
func (f *File) Where(key string) string {
	if line, ok := f.Lines[strings.ToLower(key)]; ok {
		return fmt.Sprintf("%s:%d", f.Path, line)
	}
	return f.Path
}

// firstAlias is the line of the first alias or anchor under n, 0 if none.
func firstAlias(n *yaml.Node) int {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return n.Line
	}
	for _, c := range n.Content {
		if l := firstAlias(c); l > 0 {
			return l
		}
	}
	return 0
}

// lowerKeys lowercases every key of m, in nested maps and lists too; a map
// with keys that are not strings (1: x) gets them as text.
func lowerKeys(m map[string]any) {
	for k, v := range m {
		v = lowerValue(v)
		if lk := strings.ToLower(k); lk != k {
			delete(m, k)
			k = lk
		}
		m[k] = v
	}
}

func lowerValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		lowerKeys(t)
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = e
		}
		lowerKeys(m)
		return m
	case []any:
		for i, e := range t {
			t[i] = lowerValue(e)
		}
		return t
	}
	return v
}

// indexLines records the line of every key of a mapping, and of the keys
// one level down (a command's section), lowercased; under "models" every
// level (the line of a model's price).
func (f *File) indexLines(n *yaml.Node, prefix string) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		key := prefix + strings.ToLower(k.Value)
		if _, dup := f.Lines[key]; !dup {
			f.Lines[key] = k.Line
		}
		if (prefix == "" || strings.HasPrefix(key, "models.")) && val.Kind == yaml.MappingNode {
			f.indexLines(val, key+".")
		}
	}
}

// Get returns the value at key, a dotted path ("replay.budget"), without
// regard to case: a string, number, bool, list ([]any) or map
// (map[string]any, keys lowercased). A key that is itself dotted
// ("replay.budget: 5" at the top level) is found too. nil when not set.
func (f *File) Get(key string) any {
	if f == nil || f.values == nil {
		return nil
	}
	return f.values.Get(key)
}

// IsSet reports whether key has a value that is not null.
func (f *File) IsSet(key string) bool { return f.Get(key) != nil }
