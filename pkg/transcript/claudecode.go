package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/pkg/tokenize"
)

type ccRecord struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	UUID             string          `json:"uuid"`
	RequestID        string          `json:"requestId"`
	IsSidechain      bool            `json:"isSidechain"`
	IsMeta           bool            `json:"isMeta"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	Timestamp        json.RawMessage `json:"timestamp"`
	Message          *ccMessage      `json:"message"`
	Version          string          `json:"version"` // of Claude Code
}

type ccMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Usage   *anUsage        `json:"usage"`
	Model   string          `json:"model"`
	// StopReason is "" until a response's last record ("end_turn",
	// "tool_use"); some Claude Code versions never write it.
	StopReason string `json:"stop_reason"`

	// Set by the hand decoder, which reads the content on its way through
	// the line (encoding/json leaves it nil: parseAnthropic reads Content).
	content *anRead
}

// content splits the message's content (see [parseAnthropic]).
func (m *ccMessage) parseContent() (anContent, error) {
	if m.content != nil {
		return m.content.split()
	}
	return parseAnthropic(m.Content)
}

// parse decodes a record line as json.Unmarshal does, in one pass over it
// (see [jsonl.Parser]), and reports whether it could. When it cannot (bad
// JSON, a wrong type, a duplicate or oddly cased field) the caller decodes
// the line with encoding/json, which gives the error; rec is then to be
// reset first. Fields harpe does not use (toolUseResult, snapshots,
// progress data) are checked for syntax and skipped. Message.Content and
// Timestamp point into line, which must be valid UTF-8 (lineDecoder.next
// checks it).
func (rec *ccRecord) parse(line []byte) bool {
	p := jsonl.NewParserUTF8(line)
	var seen fieldSet
	p.Object(func(key []byte) {
		switch string(key) {
		case "type":
			seen.once(&p, 0)
			rec.Type = p.StringIn(ccTypeNames)
		case "subtype":
			seen.once(&p, 1)
			rec.Subtype = p.StringIn(ccSubtypeNames)
		case "uuid":
			seen.once(&p, 2)
			rec.UUID = p.String()
		case "requestId":
			seen.once(&p, 9)
			rec.RequestID = p.String()
		case "isSidechain":
			seen.once(&p, 3)
			rec.IsSidechain = p.Bool()
		case "isMeta":
			seen.once(&p, 4)
			rec.IsMeta = p.Bool()
		case "isCompactSummary":
			seen.once(&p, 5)
			rec.IsCompactSummary = p.Bool()
		case "timestamp":
			seen.once(&p, 6)
			rec.Timestamp = p.Skip()
		case "message":
			seen.once(&p, 7)
			if p.Null() {
				return
			}
			rec.Message = new(ccMessage)
			rec.Message.parse(&p)
		case "version":
			seen.once(&p, 8)
			rec.Version = p.String()
		default:
			otherField(&p, key, ccRecordFields)
		}
	})
	return p.End()
}

// handDecode turns the hand decoders on; the differential tests turn them
// off to compare with encoding/json alone.
var handDecode = true

// The values of record and block types, roles and subtypes that the hand
// decoders return without allocating.
var (
	ccTypeNames    = []string{"assistant", "user", "progress", "system", "file-history-snapshot", "summary", "queue-operation"}
	ccSubtypeNames = []string{"compact_boundary", "local_command", "api_error", "informational", "turn_duration"}
	ccRoleNames    = []string{"assistant", "user"}
	anBlockTypes   = []string{"text", "tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document"}
)

var (
	ccRecordFields  = []string{"type", "subtype", "uuid", "isSidechain", "isMeta", "isCompactSummary", "timestamp", "message", "version", "requestId"}
	ccMessageFields = []string{"id", "role", "content", "usage", "model", "stop_reason"}
)

func (m *ccMessage) parse(p *jsonl.Parser) {
	var seen fieldSet
	p.Object(func(key []byte) {
		switch string(key) {
		case "id":
			seen.once(p, 0)
			m.ID = p.String()
		case "role":
			seen.once(p, 1)
			m.Role = p.StringIn(ccRoleNames)
		case "content":
			seen.once(p, 2)
			if p.Null() {
				m.Content = json.RawMessage("null")
				return
			}
			m.content = new(anRead)
			m.Content = m.content.parse(p)
		case "usage":
			seen.once(p, 3)
			if p.Null() {
				return
			}
			m.Usage = new(anUsage)
			m.Usage.parse(p)
		case "model":
			seen.once(p, 4)
			m.Model = p.String()
		case "stop_reason":
			seen.once(p, 5)
			if p.Null() {
				return
			}
			m.StopReason = p.String()
		default:
			otherField(p, key, ccMessageFields)
		}
	})
}

// fastModel names the model of a response served in Anthropic's fast mode
// (`usage.speed: "fast"`, written by Claude Code 2.1.1xx): the model's
// name with "-fast", as ccusage 20 names it, priced at fast mode's
// prices (see [prices.DB.Find]).
func fastModel(model string) string {
	if model == "" || strings.HasSuffix(model, "-fast") {
		return model
	}
	return model + "-fast"
}

// ccTime is [parseTime] with a shortcut for the RFC 3339 strings without
// escapes that Claude Code writes: parseTime tries that layout first.
func ccTime(raw json.RawMessage) (time.Time, error) {
	if len(raw) > 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		if ts, err := time.Parse(time.RFC3339Nano, string(raw[1:len(raw)-1])); err == nil {
			return ts, nil
		}
	}
	return parseTime(raw)
}

// ccHarnessPrefixes start user records that the harness wrote, not the
// person: they do not open a turn.
var ccHarnessPrefixes = []string{"<command-name>", "<command-message>", "<local-command-stdout>",
	"<local-command-caveat>", "[Request interrupted by user"}

// readClaudeCode reads a Claude Code session: user and assistant records
// become messages; every other record is counted in Skipped by type.
//
// One API response is several assistant records sharing message.id (with
// or without a requestId: Bedrock's msg_bdrk_… ids come without one):
// each record is its own message, all with Call set to that id. Claude
// Code writes a record per content block as the response streams, each
// with the response's usage as it stood then: the input and cache parts
// are final from the first record, output_tokens only on the last. So the
// usage of the LAST record of the call that carries usage is the call's
// (see [ccCalls]); it goes on the first message of the call only, in its
// parts (see [Usage]), with the model. Sidechain records (a subagent's
// work inside the main session) are skipped and counted as "sidechain",
// their calls' usage (last record too) kept in [Transcript.Unsent],
// unless the file is a subagent's own file, whose first message record is
// a sidechain one: then the sidechain is the conversation and other
// records are skipped the same way.
func readClaudeCode(d *lineDecoder, b *builder) error {
	r := ccReader{d: d, b: b, sidechain: -1, calls: newCCCalls(b), unsent: map[string]int{}, thinking: map[string]string{}}
	for {
		if _, err := d.next(); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		var rec ccRecord
		if !handDecode || !rec.parse(d.data) {
			rec = ccRecord{}
			if err := d.decode(&rec); err == errLineSkipped {
				continue
			} else if err != nil {
				return err
			}
		}
		if err := r.record(&rec); err != nil {
			return err
		}
	}
	r.calls.finish(d.name)
	return nil
}

// ccReader is the state of one Claude Code file's reading, record by
// record: which side (main or sidechain) is the conversation, the calls
// seen so far, the sidechain calls kept in Unsent, and thinking not yet
// on a message.
type ccReader struct {
	d         *lineDecoder
	b         *builder
	sidechain int // -1 until the first message record, then 0 or 1
	calls     *ccCalls
	unsent    map[string]int    // sidechain call id → index in b.t.Unsent
	thinking  map[string]string // call id → thinking not yet on a message
}

// record reads one record: a message record of the conversation's side
// becomes messages (user or assistant); every other record is counted in
// Skipped by type.
func (r *ccReader) record(rec *ccRecord) error {
	if m := rec.Message; m != nil && m.Usage != nil && m.Usage.Speed == "fast" {
		m.Model = fastModel(m.Model)
	}
	if !r.isMessage(rec) {
		return nil
	}
	if rec.Type == "" {
		return r.d.errorf("missing \"type\"")
	}
	side := 0
	if rec.IsSidechain {
		side = 1
	}
	if r.sidechain < 0 {
		r.sidechain = side
	}
	if side != r.sidechain {
		r.b.skip("sidechain")
		// Not this conversation's, but billed: its usage counts in
		// the recorded sums, once per call as in the conversation,
		// the call's last record giving it.
		if rec.Type == "assistant" && rec.Message != nil && rec.Message.Usage != nil {
			if err := addUnsent(r.calls, r.unsent, rec, r.d.line); err != nil {
				return r.d.errorf("message.usage: %w", err)
			}
		}
		return nil
	}
	if rec.Message == nil {
		return r.d.errorf("a %s record needs \"message\"", rec.Type)
	}
	if rec.Type == "assistant" && rec.Message.Model == "<synthetic>" {
		// Claude Code's own words in the assistant's place ("No
		// response requested.", an API error shown to the user): no
		// model call made them, none bills them, none is sent them.
		r.b.skip("synthetic")
		return nil
	}
	ts, err := ccTime(rec.Timestamp)
	if err != nil {
		return r.d.errorf("%q: %v", "timestamp", err)
	}
	c, err := rec.Message.parseContent()
	if err != nil {
		return r.d.errorf("message: %v", err)
	}
	for _, k := range c.skipped {
		r.b.skip(k)
	}
	if rec.Type == "user" {
		r.user(rec, c, ts)
		return nil
	}
	return r.assistant(rec, c, ts)
}

// isMessage reports whether rec is a user or assistant record (or has no
// type, an error record reports); any other record is counted in Skipped
// by its type, and a compaction boundary marks a compaction.
func (r *ccReader) isMessage(rec *ccRecord) bool {
	switch rec.Type {
	case "user", "assistant", "":
		return true
	case "system":
		if rec.Subtype == "compact_boundary" {
			r.b.compaction()
			r.b.skip("compact_boundary")
		} else {
			r.b.skip("system")
		}
	default:
		r.b.skip(rec.Type)
	}
	return false
}

// user adds a user record's tool results, then its own words: a turn's
// start unless the harness wrote them (meta, a compact summary, a
// command's echo) or they only carry results.
func (r *ccReader) user(rec *ccRecord, c anContent, ts time.Time) {
	for _, m := range c.results {
		m.Timestamp = ts
		r.b.add(m, false)
	}
	if !c.isString && c.text == "" && c.images == 0 && c.hasResult {
		return
	}
	harness := false
	for _, p := range ccHarnessPrefixes {
		if strings.HasPrefix(strings.TrimLeft(c.text, " \n"), p) {
			harness = true
		}
	}
	meta := rec.IsMeta || rec.IsCompactSummary || harness
	if rec.IsCompactSummary {
		r.b.compaction()
	}
	r.b.add(Message{Role: RoleUser, Text: c.text, Images: c.images, Timestamp: ts, Meta: meta}, !c.hasResult && !meta)
}

// assistant adds an assistant record: its call's usage, model, stop and
// version are noted (see [ccCalls]), and its content becomes a message of
// that call, unless it holds only thinking, kept for the call's next
// message.
func (r *ccReader) assistant(rec *ccRecord, c anContent, ts time.Time) error {
	id := rec.Message.ID
	if id == "" {
		id = rec.UUID
	}
	u, err := r.calls.parts(rec.Message.Usage, r.d.line)
	if err != nil {
		return r.d.errorf("message.usage: %w", err)
	}
	call := r.calls.record(id, u, rec.Message.Usage != nil && rec.Message.Usage.CacheCreation != nil, r.d.line)
	cc := &r.calls.list[call]
	if rec.Message.Model != "" {
		cc.model = rec.Message.Model
	}
	if rec.Message.StopReason != "" {
		cc.stopped = true
	}
	if rec.Version != "" {
		cc.version = rec.Version
	}
	if cc.response == "" {
		cc.response = ccResponse(rec.Message.ID, rec.RequestID)
	}
	if c.thinking != "" {
		r.thinking[id] += c.thinking
	}
	if c.text == "" && len(c.calls) == 0 && c.images == 0 && len(c.results) == 0 {
		// A thinking-only record: counted above, no message; its
		// thinking goes on the call's next message.
		return nil
	}
	m := Message{Role: RoleAssistant, Text: c.text, Images: c.images, ToolCalls: c.calls, Timestamp: ts, Call: id, Model: rec.Message.Model, Thinking: r.thinking[id]}
	delete(r.thinking, id)
	if err := r.calls.message(call, &m); err != nil {
		return r.d.errorf("message.usage: %w", err)
	}
	for _, res := range c.results {
		res.Timestamp = ts
		r.b.add(res, false)
	}
	return nil
}

// addUnsent keeps the usage of a sidechain record in b.t.Unsent: the
// first record of its call appends the call, later ones replace its usage
// (the last record of a streamed response gives the final output).
func addUnsent(cs *ccCalls, unsent map[string]int, rec *ccRecord, line int) error {
	b := cs.b
	msg := rec.Message
	id := msg.ID
	if id == "" {
		id = rec.UUID
	}
	u, err := cs.parts(msg.Usage, line)
	if err != nil || u == nil {
		return err
	}
	if _, err := u.checkedPrompt(); err != nil {
		return err
	}
	if k, ok := unsent[id]; ok {
		b.t.Unsent[k].Usage = *u
		return nil
	}
	unsent[id] = len(b.t.Unsent)
	// The call is priced at its date; a timestamp that does not read (on
	// a record that is not this conversation's) prices it as undated.
	ts, err := ccTime(rec.Timestamp)
	if err != nil {
		ts = time.Time{}
	}
	b.t.Unsent = append(b.t.Unsent, UnsentCall{Model: msg.Model, Time: ts, Usage: *u, Response: ccResponse(msg.ID, rec.RequestID)})
	return nil
}

// ccResponse is the [Message.Response] of a Claude Code response:
// message.id and requestId, as ccusage 20 keys a response to count it once
// across files; message.id alone when there is no requestId (Bedrock's
// msg_bdrk_… ids, and some records of Claude Code 2.1.7, come without
// one); "" when there is no message.id.
func ccResponse(id, request string) string {
	if id == "" || request == "" {
		return id
	}
	return id + ":" + request
}

// ccCalls follows the calls (API responses) of a Claude Code session:
// which message holds each call's usage, the usage of the call's latest
// record, and the estimated size of its visible content, so that a call
// whose recorded output is far below what it visibly wrote is noted once
// per file (a stream cut off before its last record, or a file rewritten
// by a tool that kept the first record). "Far below" is under a quarter
// of the estimate ([shortOutputFactor]): the estimate is not the
// provider's tokenizer, and a first record's output (1 to 10 tokens
// against a whole file written) is far under that.
type ccCalls struct {
	b     *builder
	byID  map[string]int // call id → index in list
	list  []ccCall
	short int // calls noted by finish

	// Records whose usage has a negative count: left out, counted, and
	// noted once by finish with the first one's line and error.
	negative     int
	negativeLine int
	negativeErr  error
}

// parts is u in its parts (see [anUsage.parts]). A record with a negative
// count (which would bill a negative cost) is treated as recording no
// usage: it is counted in Skipped as "negative_usage" and noted once.
func (cs *ccCalls) parts(u *anUsage, line int) (*Usage, error) {
	if err := u.check(); err != nil {
		cs.b.skip("negative_usage")
		if cs.negative == 0 {
			cs.negativeLine, cs.negativeErr = line, err
		}
		cs.negative++
		return nil, nil
	}
	return u.parts()
}

type ccCall struct {
	at       int    // index of the message holding the usage; -1 before the call's first message
	model    string // the model its records name
	response string // [Message.Response]: its first record's ids
	usage    *Usage // the latest record's usage; nil before any
	visible  int    // estimated tokens of the call's text and tool calls
	line     int    // the line of the call's latest usage
	stopped  bool   // a record of the call has a stop_reason (the final one)
	version  string // the Claude Code version its records name, "" when none
}

func newCCCalls(b *builder) *ccCalls { return &ccCalls{b: b, byID: map[string]int{}} }

// record notes a record of call id with usage u (nil: none) read from
// line, and returns the call's index. A record with usage replaces the
// usage of the call's earlier records, on its message too when that was
// added already; split says whether it splits its cache write by TTL
// (cache_creation): when not, an earlier record's split of the same
// write is kept.
func (cs *ccCalls) record(id string, u *Usage, split bool, line int) int {
	k, ok := cs.byID[id]
	if !ok {
		k = len(cs.list)
		cs.byID[id] = k
		cs.list = append(cs.list, ccCall{at: -1})
	}
	c := &cs.list[k]
	if u == nil {
		return k
	}
	if !split && c.usage != nil && c.usage.CacheWrite == u.CacheWrite {
		u.CacheWrite1h = c.usage.CacheWrite1h
	}
	c.usage, c.line = u, line
	if c.at >= 0 {
		if c.at < cs.b.base {
			// Handed on already (a human prompt came between the
			// call's records): the change cannot reach it.
			cs.b.skip("usage_after_hand_over")
		} else {
			// The prompt parts of a later record were checked when it was
			// parsed; setUsage checks their sum again.
			_ = cs.b.msg(c.at).setUsage(u)
			cs.b.usageAt(c.at)
		}
	}
	return k
}

// message adds m, an assistant message of call k; the call's first
// message gets the usage known so far.
func (cs *ccCalls) message(k int, m *Message) error {
	c := &cs.list[k]
	c.visible += visibleTokens(m)
	first := c.at < 0
	if first {
		if err := m.setUsage(c.usage); err != nil {
			return err
		}
		m.Response = c.response
	}
	at := cs.b.add(*m, false)
	if first {
		c.at = at
	}
	return nil
}

// visibleTokens is the estimated size of what m shows the model wrote:
// its text and tool calls (thinking aside: providers bill it whole but
// may record only a summary).
func visibleTokens(m *Message) int {
	n := tokenize.EstimateTokens(m.Text)
	for _, c := range m.ToolCalls {
		n += tokenize.EstimateTokens(c.Name) + tokenize.EstimateTokens(c.Arguments)
	}
	return n
}

// shortOutputFactor: a call is short when its recorded output is under
// 1/shortOutputFactor of the estimate of its visible content.
const shortOutputFactor = 4

// finish keeps the usage of the calls that never got a message in
// [Transcript.Unsent]: a response whose only records are thinking blocks
// (cut off before its text or tool call was written, as real sessions
// saved mid-response show) was billed all the same. It adds one warning
// for the calls whose recorded output is smaller than the estimate of
// their visible content.
func (cs *ccCalls) finish(name string) {
	for k := range cs.list {
		if c := &cs.list[k]; c.usage != nil && c.at < 0 {
			cs.b.t.Unsent = append(cs.b.t.Unsent, UnsentCall{Model: c.model, Usage: *c.usage, Response: c.response})
		}
	}
	if cs.negative > 0 {
		cs.b.t.Warnings = append(cs.b.t.Warnings, &Error{Name: name, Line: cs.negativeLine,
			Err: fmt.Errorf("%d records have a negative token count, their usage left out (first: %v)", cs.negative, cs.negativeErr)})
	}
	first := -1
	for k := range cs.list {
		c := &cs.list[k]
		if c.usage != nil && c.at >= 0 && c.usage.Output < c.visible/shortOutputFactor {
			if first < 0 {
				first = k
			}
			cs.short++
		}
	}
	if cs.short == 0 {
		return
	}
	c := cs.list[first]
	why := "their last records are missing (a stream cut short, or a file rewritten keeping first records)"
	if versions := cs.unstopped(); versions != "" {
		// Every record of those responses is there: the version that
		// wrote them never wrote a response's final usage.
		why = versions + " wrote no stop_reason and a partial output_tokens on every record of a response: no record holds the final usage"
	}
	cs.b.t.Warnings = append(cs.b.t.Warnings, &Error{Name: name, Line: c.line,
		Err: fmt.Errorf("%d of %d responses record under a quarter of the output tokens their visible text and tool calls count (first: %d recorded, about %d visible): %s, so their output is undercounted", cs.short, len(cs.list), c.usage.Output, c.visible, why)})
}

// unstopped names the Claude Code versions the records give ("Claude
// Code 2.1.41", "Claude Code 2.1.41, 2.1.45") when no response of the file
// has a stop_reason on any record: that harness wrote none, so a short
// output is its doing, not a lost record. It is "" when some response has
// one, or some record names no version (a file rewritten by another tool
// may have dropped both).
func (cs *ccCalls) unstopped() string {
	var versions []string
	for k := range cs.list {
		c := &cs.list[k]
		if c.usage == nil {
			continue
		}
		if c.stopped || c.version == "" {
			return ""
		}
		if !slices.Contains(versions, c.version) {
			versions = append(versions, c.version)
		}
	}
	if len(versions) == 0 {
		return ""
	}
	slices.Sort(versions)
	return "Claude Code " + strings.Join(versions, ", ")
}

var claudeCodeFormat = format{name: FormatClaudeCode, line: claudeCodeLine, lines: readClaudeCode, layout: claudeCodeLayout,
	keys: []string{"type", "sessionId", "uuid", "parentUuid", "message"}, exts: []string{".jsonl"},
	about: about{"Claude Code", "JSON Lines, a session a file (a subagent's under <session>/subagents/)", []string{"$CLAUDE_CONFIG_DIR/projects", "~/.claude/projects"}}}

// claudeCodeLayout: …/projects/<project>/<session-uuid>.jsonl, or a
// subagent's …/<session-uuid>/subagents/agent-<id>.jsonl.
func claudeCodeLayout(parts []string) bool {
	b, n := base(parts)
	return n >= 2 && parts[n-2] == "subagents" && strings.HasPrefix(b, "agent-") && strings.HasSuffix(b, ".jsonl") ||
		n >= 3 && parts[n-3] == "projects" && strings.HasSuffix(b, ".jsonl")
}

var claudeTypes = map[string]bool{"user": true, "assistant": true, "system": true, "summary": true, "progress": true, "file-history-snapshot": true, "queue-operation": true}

// claudeCodeLine: a record with a session id and a uuid, or of a Claude
// Code type with one of the keys harpe's events lack (or of a type harpe
// has not).
func claudeCodeLine(obj map[string]json.RawMessage) bool {
	if codexLine(obj) {
		return false
	}
	typ := str(obj["type"])
	return obj["sessionId"] != nil && (obj["uuid"] != nil || obj["parentUuid"] != nil) ||
		claudeTypes[typ] && (obj["sessionId"] != nil || obj["uuid"] != nil || obj["message"] != nil || !harpeTypes[typ])
}
