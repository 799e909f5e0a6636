// Package play is the Go side of the browser playground: the functions the
// page calls, each taking its arguments as one JSON object and returning one
// JSON object, over the same pkg/ APIs the command uses.
//
// Every answer is an [Answer]: {"result": …} on success, {"error": "…"} on
// failure. Bad input is an error value, never a panic: [Call] recovers from
// any panic below it and reports it as an error, so the page keeps working.
//
// The package builds on every platform, so its tests run natively; only
// the syscall/js glue (web/wasm) needs GOOS=js GOARCH=wasm. It links in no
// BPE table: the page fetches o200k_base.bin and cl100k_base.bin on demand
// and hands them to [LoadEncoding].
package play

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// Answer is what every call returns, as JSON: exactly one of Result and
// Error is set.
type Answer struct {
	Result any    `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// handler runs one function on its JSON arguments.
type handler func(args []byte) (any, error)

var handlers = map[string]handler{
	"synthesize": synthesize,
	"count":      count,
	"replay":     replay,
	"dates":      datesFn,
	"info":       info,
}

// Functions lists the names [Call] knows, sorted.
func Functions() []string {
	return []string{"count", "dates", "info", "replay", "synthesize"}
}

// Call runs the function called name ("synthesize", "count", "replay",
// "dates" or "info") on args, a JSON object, and returns the [Answer] as
// JSON.
func Call(name, args string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = encode(Answer{Error: fmt.Sprintf("internal error in %s: %v", name, r)})
		}
	}()
	h, ok := handlers[name]
	if !ok {
		return encode(Answer{Error: fmt.Sprintf("unknown function %q; valid: %s", name, strings.Join(Functions(), ", "))})
	}
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	res, err := h([]byte(args))
	if err != nil {
		return encode(Answer{Error: err.Error()})
	}
	return encode(Answer{Result: res})
}

// loaded are the exact encodings whose tables the page has handed over
// ([LoadEncoding]), by name: the page's own, since pkg/tokenize's
// encodings are fixed when the program starts.
var loaded struct {
	mu     sync.Mutex
	encs   map[string]*tokenize.Encoding
	tables map[string][]byte
}

// loadedEncoding returns the encoding called name that the page loaded,
// nil if none.
func loadedEncoding(name string) *tokenize.Encoding {
	loaded.mu.Lock()
	defer loaded.mu.Unlock()
	return loaded.encs[name]
}

// LoadEncoding reads an exact encoding's table (the bytes of
// o200k_base.bin or cl100k_base.bin, which the page fetches on demand),
// which the functions count with from then on, and returns the [Answer] as
// JSON, with result {"tokenizer": name} on success. Loading the same
// table again is a no-op; another table for an encoding already loaded is
// an error.
func LoadEncoding(name string, table []byte) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = encode(Answer{Error: fmt.Sprintf("internal error loading %s: %v", name, r)})
		}
	}()
	e, err := tokenize.LoadEncoding(name, table)
	if err != nil {
		return encode(Answer{Error: err.Error()})
	}
	loaded.mu.Lock()
	defer loaded.mu.Unlock()
	if old, ok := loaded.tables[name]; ok {
		if !bytes.Equal(old, table) {
			return encode(Answer{Error: fmt.Sprintf("tokenizer %s already has a different table", name)})
		}
		return encode(Answer{Result: map[string]string{"tokenizer": name}})
	}
	if loaded.encs == nil {
		loaded.encs = map[string]*tokenize.Encoding{}
		loaded.tables = map[string][]byte{}
	}
	loaded.encs[name], loaded.tables[name] = e, table
	return encode(Answer{Result: map[string]string{"tokenizer": name}})
}

func encode(a Answer) string {
	b, err := json.Marshal(a)
	if err != nil {
		b, _ = json.Marshal(Answer{Error: "cannot encode the answer: " + err.Error()})
	}
	return string(b)
}

// decodeArgs reads a JSON object into v, refusing unknown fields so that a
// misspelt option is an error and not silently ignored.
func decodeArgs(args []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("arguments: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("arguments: more than one JSON value")
	}
	return nil
}

// counter returns the counter called name ("" is the estimate): an exact
// encoding the page loaded, else what [tokenize.New] gives.
func counter(name string) (tokenize.Counter, error) {
	if name == "" {
		return tokenize.Estimate, nil
	}
	if e := loadedEncoding(name); e != nil {
		return e, nil
	}
	c, err := tokenize.New(name)
	if err != nil {
		if e := encodingNamed(name); e != nil && !e.Registered() {
			return nil, fmt.Errorf("tokenizer %s: its table is not loaded yet", name)
		}
		return nil, err
	}
	return c, nil
}

func encodingNamed(name string) *tokenize.Encoding {
	switch name {
	case tokenize.O200kBase.Name():
		return tokenize.O200kBase
	case tokenize.Cl100kBase.Name():
		return tokenize.Cl100kBase
	}
	return nil
}

// Tokenizer is one counter's state in [Info].
type Tokenizer struct {
	Name string `json:"name"`
	// Loaded is false for an exact encoding whose table the page has not
	// loaded yet.
	Loaded bool `json:"loaded"`
}
