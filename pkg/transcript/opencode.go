package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/internal/jsonl"
)

// FormatOpenCode is an OpenCode session as `opencode export <session id>`
// writes it: {info, messages: [{info, parts}]}.
const FormatOpenCode Format = "opencode"

type ocMessage struct {
	Info  *ocInfo           `json:"info"`
	Parts []json.RawMessage `json:"parts"`
}

type ocInfo struct {
	ID      string `json:"id"`
	Role    string `json:"role"`
	ModelID string `json:"modelID"`
	Time    struct {
		Created json.RawMessage `json:"created"`
	} `json:"time"`
	Tokens *ocTokens `json:"tokens"`
}

// ocTokens is OpenCode's usage of a call (a step-finish part) or of a
// message: input is the prompt neither read from nor written to a cache;
// output leaves the reasoning out for some providers and holds it for
// others (OpenAI's); total, when written, is the provider's: the prompt
// (input and both cache parts) plus the whole output.
type ocTokens struct {
	Total     *int `json:"total"`
	Input     int  `json:"input"`
	Output    int  `json:"output"`
	Reasoning int  `json:"reasoning"`
	Cache     struct {
		Read  int `json:"read"`
		Write int `json:"write"`
	} `json:"cache"`
	// redacted: the tokens are a string ("***"), as `opencode export
	// --sanitize` writes them: nothing is recorded.
	redacted bool
}

// UnmarshalJSON reads tokens, or a redacted string in their place.
func (t *ocTokens) UnmarshalJSON(b []byte) error {
	if v := bytes.TrimSpace(b); len(v) > 0 && v[0] == '"' {
		*t = ocTokens{redacted: true}
		return nil
	}
	type plain ocTokens
	return json.Unmarshal(b, (*plain)(t))
}

// usage is t as harpe's parts, the reasoning billed as output: the
// output is what total leaves once the prompt is taken out, when that
// lies between output and output + reasoning (so it tells whether output
// held the reasoning); else, with no total, output + reasoning.
func (t *ocTokens) usage() (*Usage, error) {
	if err := nonNegative(count{"input", t.Input}, count{"output", t.Output}, count{"reasoning", t.Reasoning},
		count{"cache.read", t.Cache.Read}, count{"cache.write", t.Cache.Write}); err != nil {
		return nil, err
	}
	out, ok := checked.Add(t.Output, t.Reasoning)
	if !ok {
		return nil, &checked.OverflowError{What: fmt.Sprintf("output (%d) and reasoning (%d)", t.Output, t.Reasoning)}
	}
	if t.Total != nil {
		// The subtractions of counts ≥ 0 from a total cannot overflow
		// unless the total is negative, which the bounds then refuse.
		rest := *t.Total - t.Input - t.Cache.Read - t.Cache.Write
		if *t.Total >= 0 && rest >= t.Output && rest <= out {
			out = rest
		}
	}
	return &Usage{Input: t.Input, CacheRead: t.Cache.Read, CacheWrite: t.Cache.Write, Output: out}, nil
}

type ocPart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Synthetic bool            `json:"synthetic"`
	Ignored   bool            `json:"ignored"`
	CallID    string          `json:"callID"`
	Tool      string          `json:"tool"`
	Mime      string          `json:"mime"`
	Tokens    *ocTokens       `json:"tokens"`
	State     *ocToolState    `json:"state"`
	Time      json.RawMessage `json:"time"`
}

type ocToolState struct {
	Status string          `json:"status"`
	Input  json.RawMessage `json:"input"`
	Output string          `json:"output"`
	Error  string          `json:"error"`
}

// openCodeMessages returns the reader of the messages of one export, in
// order, into b. A user message's text parts are the prompt. An assistant
// message holds one or more steps, each one model call closed by a
// step-finish part with that call's tokens: each step becomes an
// assistant message (its text and tool calls) with the step's usage,
// followed by its tool results (kept inside each tool part, in
// state.output or state.error). A message with no step-finish tokens
// takes the message's own tokens, when recorded. Reasoning, step-start,
// patch, snapshot and other parts are counted as skipped ("part/<type>").
func openCodeMessages(b *builder, name string) func(i int, raw json.RawMessage) error {
	warned := false
	return func(i int, raw json.RawMessage) error {
		path := fmt.Sprintf("messages[%d]", i)
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return errAt(name, path, "want a message object {info, parts}, got %s", jsonl.Kind(raw))
		}
		var m ocMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return typeErrAt(name, path, err)
		}
		if m.Info == nil {
			return errAt(name, path, "missing \"info\"")
		}
		ts, err := parseTime(m.Info.Time.Created)
		if err != nil {
			return errAt(name, path+".info.time", "%q: %v", "created", err)
		}
		parts := make([]ocPart, len(m.Parts))
		redacted := m.Info.Tokens != nil && m.Info.Tokens.redacted
		for k, p := range m.Parts {
			if err := json.Unmarshal(p, &parts[k]); err != nil {
				return typeErrAt(name, fmt.Sprintf("%s.parts[%d]", path, k), err)
			}
			redacted = redacted || parts[k].Tokens != nil && parts[k].Tokens.redacted
		}
		if redacted && !warned {
			warned = true
			b.t.Warnings = append(b.t.Warnings, &Error{Name: name, Path: path,
				Err: errors.New("the tokens are redacted (\"***\", as opencode export --sanitize writes them): the calls of this export record no usage")})
		}
		switch m.Info.Role {
		case "user":
			var texts []string
			images := 0
			for _, p := range parts {
				switch {
				case p.Type == "text" && !p.Ignored:
					texts = append(texts, p.Text)
				case p.Type == "file" && strings.HasPrefix(p.Mime, "image/"):
					images++
				default:
					b.skip("part/" + p.Type)
				}
			}
			b.add(Message{Role: RoleUser, Text: strings.Join(texts, "\n"), Images: images, Timestamp: ts}, true)
		case "assistant":
			return openCodeSteps(b, name, path, m.Info, parts, ts)
		case "":
			return errAt(name, path+".info", "missing \"role\"; valid: user, assistant")
		default:
			return errAt(name, path+".info", "unknown role %q; valid: user, assistant", m.Info.Role)
		}
		return nil
	}
}

// openCodeSteps adds the steps of one assistant message.
func openCodeSteps(b *builder, name, path string, info *ocInfo, parts []ocPart, ts time.Time) error {
	cur := Message{Role: RoleAssistant, Timestamp: ts, Model: info.ModelID}
	var texts []string
	var results []Message
	open, priced, last := false, false, -1
	flush := func(u *ocTokens, at string) error {
		cur.Text = strings.Join(texts, "\n")
		if u.recorded() {
			usage, err := u.usage()
			if err != nil {
				return errAt(name, at, "%w", err)
			}
			if err := cur.setUsage(usage); err != nil {
				return errAt(name, at, "%w", err)
			}
			priced = true
		}
		last = b.add(cur, false)
		for _, r := range results {
			b.add(r, false)
		}
		cur = Message{Role: RoleAssistant, Timestamp: ts, Model: info.ModelID}
		texts, results, open = nil, nil, false
		return nil
	}
	for k, p := range parts {
		at := fmt.Sprintf("%s.parts[%d]", path, k)
		switch p.Type {
		case "text":
			if !p.Ignored {
				texts = append(texts, p.Text)
				open = true
			}
		case "tool":
			if p.CallID == "" {
				return errAt(name, at, "\"callID\" is required")
			}
			st := p.State
			if st == nil {
				st = &ocToolState{}
			}
			cur.ToolCalls = append(cur.ToolCalls, ToolCall{ID: p.CallID, Name: p.Tool, Arguments: argText(st.Input)})
			open = true
			switch st.Status {
			case "completed":
				results = append(results, Message{Role: RoleTool, Name: p.Tool, ToolCallID: p.CallID, Text: st.Output, Timestamp: ts})
			case "error":
				results = append(results, Message{Role: RoleTool, Name: p.Tool, ToolCallID: p.CallID, Text: st.Error, Timestamp: ts})
			}
		case "step-finish":
			if open || p.Tokens.recorded() {
				if err := flush(p.Tokens, at+".tokens"); err != nil {
					return err
				}
			}
			b.skip("part/step-finish")
		default:
			b.skip("part/" + p.Type)
		}
	}
	if open {
		if err := flush(nil, ""); err != nil {
			return err
		}
	}
	if priced || !info.Tokens.recorded() {
		return nil
	}
	// No step recorded its tokens: the message's own are its one call's.
	at := path + ".info.tokens"
	usage, err := info.Tokens.usage()
	if err != nil {
		return errAt(name, at, "%w", err)
	}
	if last < 0 {
		last = b.add(cur, false)
	}
	if err := b.msg(last).setUsage(usage); err != nil {
		return errAt(name, at, "%w", err)
	}
	return nil
}

// recorded reports whether t records a prompt: OpenCode writes zeros
// where a call was not made or its usage not known.
func (t *ocTokens) recorded() bool {
	return t != nil && (t.Input != 0 || t.Cache.Read != 0 || t.Cache.Write != 0 || t.Output != 0 || t.Reasoning != 0)
}

var openCodeFormat = format{name: FormatOpenCode, doc: openCodeDoc, document: readOpenCode, stream: openCodeStream,
	keys: []string{"messages"}, exts: []string{".json"}, archive: true,
	about: about{"OpenCode", "JSON, as opencode export <session> writes it (not its storage directory)", nil}}

// readOpenCode reads an OpenCode export whole, openCodeStream one message
// at a time.
var readOpenCode, openCodeStream = messagesDoc(FormatOpenCode, openCodeMessages)

// openCodeDoc: an object with "info" and "messages" whose first message
// is {info, parts}, that the other archive formats do not claim.
func openCodeDoc(p *docProbe) bool {
	return !p.array && p.has("info") && p.has("messages") && p.first["info"] != nil && p.first["parts"] != nil &&
		!harDoc(p) && !shareGPTDoc(p) && !sweAgentDoc(p) && !longMemoryDoc(p)
}
