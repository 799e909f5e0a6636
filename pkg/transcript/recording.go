package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/url"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/internal/checked"
)

// Provider APIs a recorded request can go to.
const (
	apiChat      = "openai-chat"
	apiResponses = "openai-responses"
	apiMessages  = "anthropic-messages"
	apiGemini    = "gemini"
)

// recorded is one recorded provider call.
type recorded struct {
	where    string // "interactions[3]" or "log.entries[3]"
	api      string
	request  []byte // the request body, JSON
	response []byte // the response body: JSON, or a text/event-stream
	stream   bool
}

// apiOf names the provider API a request URL goes to, "" for none.
func apiOf(uri string) string {
	path := uri
	if u, err := url.Parse(uri); err == nil && u.Path != "" {
		path = u.Path
	}
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return apiChat
	case strings.HasSuffix(path, "/responses"):
		return apiResponses
	case strings.HasSuffix(path, "/messages"):
		return apiMessages
	case strings.HasSuffix(path, ":generateContent"), strings.HasSuffix(path, ":streamGenerateContent"):
		return apiGemini
	}
	return ""
}

// recordedCall is one call once its request was read.
type recordedCall struct {
	rec     recorded
	window  []json.RawMessage // the request's messages / input / contents
	head    string            // what else must match to continue a conversation: system, instructions
	compact []string          // window's messages compacted (see [compactJSON]), set by prefixKeys
	reply   json.RawMessage   // the response's message(s), in the request's own shape
	usage   *int              // the response's prompt size
}

// callPrompt is what a conversation keeps of a call that is not its last:
// where its reply falls in the transcript (the number of messages its
// window reads as) and the prompt size the reply reports.
type callPrompt struct {
	at, tokens int
}

// recordings turns recorded calls into transcripts as they are read, one
// call at a time: a call whose window extends the previous call's window
// (plus its reply) continues that conversation; any other starts a new
// one. Each transcript is the last call's window and its reply, with every
// call's prompt size on the reply it produced, and the last call's tool
// definitions. Only each conversation's last call is held whole; of the
// others, only a [callPrompt], so a recording of many calls takes memory
// in the size of its conversations' last calls, not of all its bodies.
type recordings struct {
	name string
	g    grouper
}

// add reads call r and puts it into its conversation.
func (rs *recordings) add(r recorded) error {
	c, err := parseRecorded(rs.name, r)
	if err != nil {
		return err
	}
	c.rec.response = nil // read into c.reply
	var p *callPrompt
	if c.usage != nil {
		wt, err := readRecordedWindow(rs.name, c, false)
		if err != nil {
			return err
		}
		p = &callPrompt{at: len(wt.Messages), tokens: *c.usage}
	}
	rs.g.add(c, p)
	return nil
}

// finish returns the transcripts of the calls added, the counts of
// skipped entries on the first.
func (rs *recordings) finish(format Format, skipped map[string]int) ([]*Transcript, error) {
	convs := rs.g.convs
	var out []*Transcript
	for k, cv := range convs {
		t, err := readRecordedWindow(rs.name, cv.last, true)
		if err != nil {
			return nil, err
		}
		t.Format = format
		if len(convs) > 1 {
			t.ID = fmt.Sprint(k + 1)
		}
		// Each call's reply is the message after its window.
		for _, p := range cv.prompts {
			if n := p.at; n < len(t.Messages) && t.Messages[n].Role == RoleAssistant {
				u := p.tokens
				t.Messages[n].InputTokens = &u
			}
		}
		if k == 0 {
			for kind, n := range skipped {
				t.Skipped[kind] += n
			}
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		t := newBuilder(format).finish()
		for kind, n := range skipped {
			t.Skipped[kind] += n
		}
		out = append(out, t)
	}
	return out, nil
}

// recordedConv is one conversation of recorded calls: each call's window
// extends the one before it. Its last call is kept whole, the others only
// as the prompt sizes their replies report.
type recordedConv struct {
	api     string
	last    *recordedCall
	prompts []callPrompt
}

// grouper puts recorded calls into conversations: a call goes to the
// latest conversation whose last call's window (with the same API and
// head) is a prefix of its own, else it starts one. Conversations are
// found by a hash of (API, head, window) kept for each conversation's last
// call, looked up for every prefix of the new window, so grouping takes
// time linear in the windows' total size, not in calls × conversations.
type grouper struct {
	convs []*recordedConv
	byKey map[uint64][]int // hash of a conversation's last window → conversation indices
	key   []uint64         // per conversation, the hash it is filed under
}

// prefixKeys returns the hashes of c's API, head and each prefix of its
// window: keys[k] covers the first k messages.
func prefixKeys(c *recordedCall) []uint64 {
	h := fnv.New64a()
	h.Write([]byte(c.rec.api))
	h.Write([]byte{0})
	h.Write([]byte(c.head))
	h.Write([]byte{0})
	keys := make([]uint64, len(c.window)+1)
	keys[0] = h.Sum64()
	c.compact = make([]string, len(c.window))
	for i, m := range c.window {
		c.compact[i] = compactJSON(m)
		h.Write([]byte(c.compact[i]))
		h.Write([]byte{0})
		keys[i+1] = h.Sum64()
	}
	return keys
}

// add puts c into its conversation, p (nil for none) its prompt size.
func (g *grouper) add(c *recordedCall, p *callPrompt) {
	if g.byKey == nil {
		g.byKey = map[uint64][]int{}
	}
	keys := prefixKeys(c)
	into := -1
	for k, key := range keys {
		for _, i := range g.byKey[key] {
			if i > into && g.extends(c, i, k) {
				into = i
			}
		}
	}
	if into < 0 {
		into = len(g.convs)
		g.convs = append(g.convs, &recordedConv{api: c.rec.api})
		g.key = append(g.key, 0)
	} else {
		old := g.byKey[g.key[into]]
		if j := slices.Index(old, into); j >= 0 {
			old = slices.Delete(old, j, j+1)
		}
		if len(old) == 0 {
			delete(g.byKey, g.key[into])
		} else {
			g.byKey[g.key[into]] = old
		}
	}
	cv := g.convs[into]
	cv.last = c
	if p != nil {
		cv.prompts = append(cv.prompts, *p)
	}
	last := keys[len(keys)-1]
	g.key[into] = last
	g.byKey[last] = append(g.byKey[last], into)
}

// extends reports whether conversation i's last window is c's first k
// messages, with the same API and head (the hashes matched: this rules
// out a collision).
func (g *grouper) extends(c *recordedCall, i, k int) bool {
	last := g.convs[i].last
	return last.rec.api == c.rec.api && last.head == c.head && len(last.compact) == k &&
		slices.Equal(last.compact, c.compact[:k])
}

// parseRecorded reads a recorded call's request window and its reply.
func parseRecorded(name string, r recorded) (*recordedCall, error) {
	c := &recordedCall{rec: r}
	bad := func(what string, err error) error {
		return errAt(name, r.where, "%s: %v", what, err)
	}
	var req map[string]json.RawMessage
	if err := json.Unmarshal(r.request, &req); err != nil {
		return nil, bad("request body is not a JSON object", err)
	}
	key := map[string]string{apiChat: "messages", apiMessages: "messages", apiResponses: "input", apiGemini: "contents"}[r.api]
	in := bytes.TrimSpace(req[key])
	switch {
	case len(in) > 0 && in[0] == '"': // Responses: input as one string
		c.window = []json.RawMessage{mustMarshal(map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": str(in)}}})}
	case len(in) > 0:
		if err := json.Unmarshal(in, &c.window); err != nil {
			return nil, bad(fmt.Sprintf("request %q", key), err)
		}
	default:
		return nil, errAt(name, r.where, "request body has no %q", key)
	}
	if r.api == apiResponses {
		for i, it := range c.window {
			c.window[i] = easyInputMessage(it)
		}
	}
	c.head = compactJSON(req["system"]) + compactJSON(req["instructions"]) + compactJSON(req["systemInstruction"])
	reply, usage, err := parseReply(r)
	if err == nil && usage != nil && *usage < 0 {
		err = fmt.Errorf("usage: the prompt's token count must be a whole number ≥ 0, got %d", *usage)
	}
	if err != nil {
		return nil, bad("response body", err)
	}
	c.reply, c.usage = reply, usage
	return c, nil
}

// easyInputMessage rewrites a Responses input item written the short way,
// {role, content: "text"} without a type, as the message item it stands
// for; any other item is returned as it is.
func easyInputMessage(it json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(it, &m) != nil || m["type"] != nil || m["role"] == nil {
		return it
	}
	m["type"] = json.RawMessage(`"message"`)
	if c := bytes.TrimSpace(m["content"]); len(c) > 0 && c[0] == '"' {
		kind := "input_text"
		if str(m["role"]) == "assistant" {
			kind = "output_text"
		}
		m["content"] = mustMarshal([]any{map[string]any{"type": kind, "text": str(c)}})
	}
	return mustMarshal(m)
}

func mustMarshal(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// readRecordedWindow reads a call's request as a transcript, with its
// reply appended when withReply.
func readRecordedWindow(name string, c *recordedCall, withReply bool) (*Transcript, error) {
	var req map[string]json.RawMessage
	_ = json.Unmarshal(c.rec.request, &req)
	window := c.window
	if withReply && c.reply != nil {
		var replies []json.RawMessage
		if err := json.Unmarshal(c.reply, &replies); err == nil {
			window = append(append([]json.RawMessage(nil), window...), replies...)
		}
	}
	doc := map[string]json.RawMessage{}
	var format Format
	switch c.rec.api {
	case apiChat:
		format = FormatOpenAI
		doc["messages"] = mustMarshal(window)
	case apiMessages:
		format = FormatAnthropic
		doc["messages"] = mustMarshal(window)
		if req["system"] != nil {
			doc["system"] = req["system"]
		}
	case apiResponses:
		format = FormatCodex
		doc["input"] = mustMarshal(window)
		if req["instructions"] != nil {
			doc["instructions"] = req["instructions"]
		}
	case apiGemini:
		format = FormatGemini
		doc["contents"] = mustMarshal(window)
		if req["systemInstruction"] != nil {
			doc["systemInstruction"] = req["systemInstruction"]
		}
	}
	doc["tools"] = req["tools"]
	ts, err := decodeDocument(mustMarshal(doc), name, format)
	if err != nil {
		return nil, relocate(err, c.rec.where+".request")
	}
	return ts[0], nil
}

// relocate puts a path prefix before the JSON path of an *Error.
func relocate(err error, prefix string) error {
	if e, ok := err.(*Error); ok {
		p := prefix
		if e.Path != "" {
			p += "." + e.Path
		}
		return &Error{Name: e.Name, Path: p, Err: e.Err}
	}
	return err
}

// parseReply reads a response body into the reply as a JSON array of
// messages in the request's own shape, and the prompt size it reports.
func parseReply(r recorded) (json.RawMessage, *int, error) {
	body := bytes.TrimSpace(r.response)
	if len(body) == 0 {
		return nil, nil, nil
	}
	if r.stream || (body[0] != '{' && body[0] != '[') {
		return parseStream(r.api, body)
	}
	var resp struct {
		Choices []struct {
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
		Content    json.RawMessage `json:"content"`
		Output     json.RawMessage `json:"output"`
		Candidates []struct {
			Content json.RawMessage `json:"content"`
		} `json:"candidates"`
		Usage         json.RawMessage `json:"usage"`
		UsageMetadata *struct {
			PromptTokenCount *int `json:"promptTokenCount"`
		} `json:"usageMetadata"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, nil, err
	}
	var reply json.RawMessage
	switch r.api {
	case apiChat:
		if len(resp.Choices) > 0 {
			reply = mustMarshal([]json.RawMessage{resp.Choices[0].Message})
		}
	case apiMessages:
		if resp.Content != nil {
			reply = mustMarshal([]any{map[string]any{"role": "assistant", "content": resp.Content}})
		}
	case apiResponses:
		reply = resp.Output
	case apiGemini:
		if len(resp.Candidates) > 0 {
			reply = mustMarshal([]json.RawMessage{resp.Candidates[0].Content})
		}
	}
	var usage *int
	if r.api == apiGemini {
		if resp.UsageMetadata != nil {
			usage = resp.UsageMetadata.PromptTokenCount
		}
	} else {
		var err error
		if usage, err = promptTokens(r.api, resp.Usage); err != nil {
			return nil, nil, err
		}
	}
	return reply, usage, nil
}

// promptTokens reads the prompt size from a usage object: OpenAI Chat
// prompt_tokens, Responses input_tokens (both include the cached part),
// Anthropic input + cache creation + cache read, whose sum must fit an
// int (else an [*engine.TokenOverflowError]).
func promptTokens(api string, raw json.RawMessage) (*int, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var u struct {
		PromptTokens *int `json:"prompt_tokens"`
		InputTokens  *int `json:"input_tokens"`
		CacheWrite   int  `json:"cache_creation_input_tokens"`
		CacheRead    int  `json:"cache_read_input_tokens"`
	}
	if json.Unmarshal(raw, &u) != nil {
		return nil, nil
	}
	switch {
	case api == apiChat && u.PromptTokens != nil:
		return u.PromptTokens, nil
	case api == apiMessages && u.InputTokens != nil:
		return anthropicPrompt(*u.InputTokens, u.CacheWrite, u.CacheRead)
	case u.InputTokens != nil:
		return u.InputTokens, nil
	}
	return nil, nil
}

// anthropicPrompt is the prompt size of an Anthropic usage record, or an
// [*engine.TokenOverflowError] when its parts do not fit an int.
func anthropicPrompt(input, cacheWrite, cacheRead int) (*int, error) {
	if err := nonNegative(count{"input_tokens", input}, count{"cache_creation_input_tokens", cacheWrite}, count{"cache_read_input_tokens", cacheRead}); err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	n, ok := checked.Sum(input, cacheWrite, cacheRead)
	if !ok {
		return nil, &checked.OverflowError{What: fmt.Sprintf("usage input_tokens (%d), cache_creation_input_tokens (%d) and cache_read_input_tokens (%d)", input, cacheWrite, cacheRead)}
	}
	return &n, nil
}

// textPart returns the text of a Gemini part that holds only text.
func textPart(p json.RawMessage) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(p, &m) != nil || len(m) != 1 || m["text"] == nil {
		return "", false
	}
	var s string
	return s, json.Unmarshal(m["text"], &s) == nil
}

// maxStreamIndex bounds the block and tool-call indices a stream may use,
// so a corrupt index cannot make the reader allocate without bound.
const maxStreamIndex = 1 << 12

// streamIndexError says that a streamed reply numbers a part past
// [maxStreamIndex] (or below 0): a corrupt recording, not skipped.
func streamIndexError(what string, i int) error {
	return fmt.Errorf("streamed %s index %d: want 0 to %d", what, i, maxStreamIndex)
}

// parseStream assembles a text/event-stream response: the reply from the
// deltas (or the final event that carries the whole response) and the
// usage from the events that carry it (the last ones), one function per
// wire protocol. Pieces are joined with builders: a reply of n deltas
// takes time linear in its size.
func parseStream(api string, body []byte) (json.RawMessage, *int, error) {
	events, err := streamEvents(body)
	if err != nil {
		return nil, nil, err
	}
	switch api {
	case apiChat:
		return streamChat(events)
	case apiMessages:
		return streamMessages(events)
	case apiResponses:
		return streamResponses(events)
	case apiGemini:
		return streamGemini(events)
	}
	return nil, nil, nil
}

// streamEvents returns the data of each event of a text/event-stream
// body, [DONE] and empty data left out; data that is not JSON is an error.
func streamEvents(body []byte) ([]json.RawMessage, error) {
	var events []json.RawMessage
	for len(body) > 0 {
		var line []byte
		line, body, _ = bytes.Cut(body, []byte("\n"))
		line = bytes.TrimRight(line, "\r")
		data, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		data = bytes.TrimSpace(data)
		if len(data) == 0 || string(data) == "[DONE]" {
			continue
		}
		if !json.Valid(data) {
			return nil, fmt.Errorf("event data is not JSON: %.40q", data)
		}
		events = append(events, json.RawMessage(data))
	}
	return events, nil
}

// streamChat assembles an OpenAI Chat Completions stream.
func streamChat(events []json.RawMessage) (json.RawMessage, *int, error) {
	var usage *int
	var text strings.Builder
	type call struct{ ID, Name, Args strings.Builder }
	var calls []*call
	for _, ev := range events {
		var e struct {
			Choices []struct {
				Delta struct {
					Content   *string `json:"content"`
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
			Usage json.RawMessage `json:"usage"`
		}
		if json.Unmarshal(ev, &e) != nil {
			continue
		}
		u, err := promptTokens(apiChat, e.Usage)
		if err != nil {
			return nil, nil, err
		}
		if u != nil {
			usage = u
		}
		for _, ch := range e.Choices {
			if ch.Delta.Content != nil {
				text.WriteString(*ch.Delta.Content)
			}
			for _, tc := range ch.Delta.ToolCalls {
				if tc.Index < 0 || tc.Index > maxStreamIndex {
					return nil, nil, streamIndexError("tool call", tc.Index)
				}
				for len(calls) <= tc.Index {
					calls = append(calls, &call{})
				}
				c := calls[tc.Index]
				c.ID.WriteString(tc.ID)
				c.Name.WriteString(tc.Function.Name)
				c.Args.WriteString(tc.Function.Arguments)
			}
		}
	}
	msg := map[string]any{"role": "assistant", "content": text.String()}
	if len(calls) > 0 {
		var tcs []any
		for _, c := range calls {
			tcs = append(tcs, map[string]any{"id": c.ID.String(), "type": "function", "function": map[string]any{"name": c.Name.String(), "arguments": c.Args.String()}})
		}
		msg["tool_calls"] = tcs
	}
	return mustMarshal([]any{msg}), usage, nil
}

// anEvent is one event of an Anthropic Messages stream.
type anEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		Usage *struct {
			InputTokens int `json:"input_tokens"`
			CacheWrite  int `json:"cache_creation_input_tokens"`
			CacheRead   int `json:"cache_read_input_tokens"`
		} `json:"usage"`
	} `json:"message"`
	ContentBlock *struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking string          `json:"thinking"`
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Input    json.RawMessage `json:"input"`
	} `json:"content_block"`
	Delta *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		Thinking    string `json:"thinking"` // thinking_delta
	} `json:"delta"`
	Usage *struct {
		InputTokens *int `json:"input_tokens"`
		CacheWrite  *int `json:"cache_creation_input_tokens"`
		CacheRead   *int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// anStreamBlock is one content block of an Anthropic stream as it is
// assembled.
type anStreamBlock struct {
	Type, ID, Name string
	Text, JSON     strings.Builder
	Input          json.RawMessage
}

// streamMessages assembles an Anthropic Messages stream.
func streamMessages(events []json.RawMessage) (json.RawMessage, *int, error) {
	var blocks []*anStreamBlock
	var input, cacheW, cacheR int
	haveUsage := false
	for _, ev := range events {
		var e anEvent
		if json.Unmarshal(ev, &e) != nil {
			continue
		}
		switch e.Type {
		case "message_start":
			if e.Message != nil && e.Message.Usage != nil {
				u := e.Message.Usage
				input, cacheW, cacheR, haveUsage = u.InputTokens, u.CacheWrite, u.CacheRead, true
			}
		case "content_block_start":
			if e.Index < 0 || e.Index > maxStreamIndex {
				return nil, nil, streamIndexError("content block", e.Index)
			}
			for len(blocks) <= e.Index {
				blocks = append(blocks, &anStreamBlock{})
			}
			if cb := e.ContentBlock; cb != nil {
				b := &anStreamBlock{Type: cb.Type, ID: cb.ID, Name: cb.Name, Input: cb.Input}
				b.Text.WriteString(cb.Text)
				b.Text.WriteString(cb.Thinking)
				blocks[e.Index] = b
			}
		case "content_block_delta":
			if e.Index >= 0 && e.Index < len(blocks) && e.Delta != nil {
				b := blocks[e.Index]
				b.Text.WriteString(e.Delta.Text)
				b.Text.WriteString(e.Delta.Thinking)
				b.JSON.WriteString(e.Delta.PartialJSON)
			}
		case "message_delta":
			// Later events may restate the usage, the last word wins.
			if u := e.Usage; u != nil {
				if u.InputTokens != nil {
					input, haveUsage = *u.InputTokens, true
				}
				if u.CacheWrite != nil {
					cacheW = *u.CacheWrite
				}
				if u.CacheRead != nil {
					cacheR = *u.CacheRead
				}
			}
		}
	}
	var content []any
	for _, b := range blocks {
		switch b.Type {
		case "text":
			content = append(content, map[string]any{"type": "text", "text": b.Text.String()})
		case "tool_use", "server_tool_use":
			in := json.RawMessage(b.JSON.String())
			if len(in) == 0 || !json.Valid(in) {
				in = b.Input
			}
			if len(in) == 0 {
				in = json.RawMessage("{}")
			}
			content = append(content, map[string]any{"type": b.Type, "id": b.ID, "name": b.Name, "input": in})
		case "thinking":
			content = append(content, map[string]any{"type": "thinking", "thinking": b.Text.String()})
		}
	}
	var usage *int
	if haveUsage {
		var err error
		if usage, err = anthropicPrompt(input, cacheW, cacheR); err != nil {
			return nil, nil, err
		}
	}
	return mustMarshal([]any{map[string]any{"role": "assistant", "content": content}}), usage, nil
}

// streamResponses assembles an OpenAI Responses stream.
func streamResponses(events []json.RawMessage) (json.RawMessage, *int, error) {
	// response.completed carries the whole response.
	for _, ev := range events {
		var e struct {
			Type     string `json:"type"`
			Response *struct {
				Output json.RawMessage `json:"output"`
				Usage  json.RawMessage `json:"usage"`
			} `json:"response"`
		}
		if json.Unmarshal(ev, &e) == nil && e.Response != nil && (e.Type == "response.completed" || e.Type == "response.incomplete") {
			u, err := promptTokens(apiResponses, e.Response.Usage)
			if err != nil {
				return nil, nil, err
			}
			return e.Response.Output, u, nil
		}
	}
	return nil, nil, nil
}

// streamGemini assembles a Gemini streamGenerateContent stream.
func streamGemini(events []json.RawMessage) (json.RawMessage, *int, error) {
	var usage *int
	var parts []json.RawMessage
	// Text arrives in pieces: a run of text parts is joined into one,
	// collected in text until a part of another kind or the end.
	var text strings.Builder
	inText := false
	flush := func() {
		if inText {
			parts = append(parts, mustMarshal(map[string]string{"text": text.String()}))
			text.Reset()
			inText = false
		}
	}
	for _, ev := range events {
		var e struct {
			Candidates []struct {
				Content struct {
					Parts []json.RawMessage `json:"parts"`
				} `json:"content"`
			} `json:"candidates"`
			UsageMetadata *struct {
				PromptTokenCount *int `json:"promptTokenCount"`
			} `json:"usageMetadata"`
		}
		if json.Unmarshal(ev, &e) != nil {
			continue
		}
		if len(e.Candidates) > 0 {
			for _, p := range e.Candidates[0].Content.Parts {
				if t, ok := textPart(p); ok {
					text.WriteString(t)
					inText = true
					continue
				}
				flush()
				parts = append(parts, p)
			}
		}
		if e.UsageMetadata != nil && e.UsageMetadata.PromptTokenCount != nil {
			usage = e.UsageMetadata.PromptTokenCount
		}
	}
	flush()
	return mustMarshal([]any{map[string]any{"role": "model", "parts": parts}}), usage, nil
}
