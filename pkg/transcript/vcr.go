package transcript

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/harpe-dev/harpe/internal/yamlsize"
)

// isVCR reports whether data looks like a VCR cassette: YAML whose first
// key at the top level is "interactions" (vcrpy writes it first; some
// suites write "version" first).
func isVCR(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || t == "---" {
			continue
		}
		if strings.HasPrefix(line, "version:") {
			continue
		}
		return strings.HasPrefix(line, "interactions:")
	}
	return false
}

// readCassette reads a VCR cassette from r, held whole: refused from its
// size (when known) or once past [MaxCassette] bytes, or when it is not
// UTF-8; then read by readVCR.
func readCassette(r io.Reader, size int64, name string) ([]byte, []*Transcript, error) {
	if size > maxCassette {
		return nil, nil, &Error{Name: name, Err: &InputTooLargeError{Limit: maxCassette, Cassette: true}}
	}
	data, err := readLimited(r, name, 0, maxCassette, true)
	if err != nil {
		return nil, nil, err
	}
	if !utf8.Valid(data) {
		return nil, nil, utf8DocError(name, data)
	}
	ts, err := readVCR(data, name)
	return data, ts, err
}

// readVCR reads a VCR cassette: interactions[] of {request: {method, uri,
// body | parsed_body}, response: {status, body: {string} | parsed_body}}.
// Each interaction with a provider API (from the uri: OpenAI chat and
// Responses, Anthropic Messages, Gemini generateContent) is one call; the
// others are counted in Skipped as "interaction". A body may be a string,
// a parsed mapping, gzip or base64 (!!binary).
func readVCR(data []byte, name string) ([]*Transcript, error) {
	var doc struct {
		Interactions []struct {
			Request struct {
				Method     string         `yaml:"method"`
				URI        string         `yaml:"uri"`
				URL        string         `yaml:"url"`
				Body       yaml.Node      `yaml:"body"`
				ParsedBody any            `yaml:"parsed_body"`
				Headers    map[string]any `yaml:"headers"`
			} `yaml:"request"`
			Response struct {
				Body       yaml.Node      `yaml:"body"`
				ParsedBody any            `yaml:"parsed_body"`
				Headers    map[string]any `yaml:"headers"`
				Status     struct {
					Code int `yaml:"code"`
				} `yaml:"status"`
			} `yaml:"response"`
		} `yaml:"interactions"`
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(name, err)
	}
	if err := yamlsize.Check(&root, len(data)); err != nil {
		var tl *yamlsize.TooLargeError
		errors.As(err, &tl)
		return nil, &Error{Name: name, Line: tl.Line, Err: err}
	}
	if err := root.Decode(&doc); err != nil {
		return nil, yamlError(name, err)
	}
	calls := recordings{name: name}
	var bodies bodyDecoder
	skipped := map[string]int{}
	for i, in := range doc.Interactions {
		where := fmt.Sprintf("interactions[%d]", i)
		uri := in.Request.URI
		if uri == "" {
			uri = in.Request.URL
		}
		api := apiOf(uri)
		if api == "" {
			skipped["interaction"]++
			continue
		}
		if in.Response.Status.Code >= 400 {
			skipped["interaction:error"]++
			continue
		}
		req, err := vcrBody(in.Request.Body, in.Request.ParsedBody, &bodies)
		if err != nil {
			return nil, errAt(name, where+".request.body", "%v", err)
		}
		resp, err := vcrBody(in.Response.Body, in.Response.ParsedBody, &bodies)
		if err != nil {
			return nil, errAt(name, where+".response.body", "%v", err)
		}
		stream := strings.Contains(headerValue(in.Response.Headers, "content-type"), "event-stream")
		if err := calls.add(recorded{where: where, api: api, request: req, response: resp, stream: stream}); err != nil {
			return nil, err
		}
	}
	if doc.Interactions == nil {
		return nil, errAt(name, "", "no \"interactions\" list")
	}
	return calls.finish(FormatVCR, skipped)
}

// vcrBody returns a recorded body as bytes: parsed (a mapping, written
// back as JSON), a string, {string: …} or a !!binary value.
func vcrBody(n yaml.Node, parsed any, bodies *bodyDecoder) ([]byte, error) {
	if parsed != nil {
		b, err := json.Marshal(jsonable(parsed))
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	if n.Kind == yaml.MappingNode {
		var m struct {
			String yaml.Node `yaml:"string"`
		}
		if err := n.Decode(&m); err != nil {
			return nil, err
		}
		n = m.String
	}
	if n.Kind == 0 || n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("want a string or {string: …}, got a YAML %s", yamlKind(n.Kind))
	}
	b := []byte(n.Value)
	if n.Tag == "!!binary" {
		d, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(n.Value), ""))
		if err != nil {
			return nil, fmt.Errorf("!!binary: %v", err)
		}
		b = d
	}
	return bodies.gunzip(b)
}

func yamlKind(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	}
	return "node"
}

// jsonable turns a YAML-decoded value into one encoding/json can write
// (maps with non-string keys become string-keyed).
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}

// headerValue finds a header in a VCR headers mapping, whose values are
// lists of strings (or a string), by name in any case.
func headerValue(h map[string]any, name string) string {
	for k, v := range h {
		if !strings.EqualFold(k, name) {
			continue
		}
		switch x := v.(type) {
		case string:
			return x
		case []any:
			var parts []string
			for _, e := range x {
				parts = append(parts, fmt.Sprint(e))
			}
			return strings.Join(parts, ", ")
		}
	}
	return ""
}

// yamlError places a YAML error: yaml.v3 writes "yaml: line N: …".
func yamlError(name string, err error) error {
	msg := err.Error()
	var line int
	if _, e := fmt.Sscanf(strings.TrimPrefix(msg, "yaml: "), "line %d:", &line); e == nil && line > 0 {
		rest := msg[strings.Index(msg, ":")+1:]
		rest = strings.TrimSpace(rest[strings.Index(rest, ":")+1:])
		return &Error{Name: name, Line: line, Err: fmt.Errorf("invalid YAML: %s", rest)}
	}
	return &Error{Name: name, Err: fmt.Errorf("invalid YAML: %s", strings.TrimPrefix(msg, "yaml: "))}
}

// vcrFormat is told by [isVCR] and read by readCassette before any JSON.
var vcrFormat = format{name: FormatVCR, exts: []string{".yaml", ".yml"}, text: isVCR, readText: readCassette,
	about: about{"VCR cassettes (vcrpy, pydantic-ai, LangChain)", "YAML", nil}}
