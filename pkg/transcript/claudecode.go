package transcript

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

type ccRecord struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	UUID             string          `json:"uuid"`
	IsSidechain      bool            `json:"isSidechain"`
	IsMeta           bool            `json:"isMeta"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	Timestamp        json.RawMessage `json:"timestamp"`
	Message          *ccMessage      `json:"message"`
}

type ccMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Usage   *anUsage        `json:"usage"`
	Model   string          `json:"model"`

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
	ccRecordFields  = []string{"type", "subtype", "uuid", "isSidechain", "isMeta", "isCompactSummary", "timestamp", "message"}
	ccMessageFields = []string{"id", "role", "content", "usage", "model"}
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
		default:
			otherField(p, key, ccMessageFields)
		}
	})
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
// One API response is several assistant records sharing message.id: each
// record is its own message, all with Call set to that id, and the usage
// (input + cache creation + cache read) goes on the first message of the
// call only, in its parts (see [Usage]; the first record of the call that
// carries usage gives it) with the model. Sidechain records (a subagent's work inside the main
// session) are skipped and counted as "sidechain", their calls' usage kept
// in [Transcript.Unsent], unless the file is a subagent's own file, whose
// first message record is a sidechain one: then the sidechain is the
// conversation and other records are skipped the same way.
func readClaudeCode(d *lineDecoder, b *builder) error {
	sidechain := -1 // unknown until the first message record
	usage := map[string]*Usage{}
	usedUsage := map[string]bool{}
	unsentSeen := map[string]bool{} // sidechain calls whose usage is counted
	thinking := map[string]string{} // call id → thinking not yet on a message
	for {
		if _, err := d.next(); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		var rec ccRecord
		if !handDecode || !rec.parse(d.data) {
			rec = ccRecord{}
			if err := d.decode(&rec); err != nil {
				return err
			}
		}
		switch rec.Type {
		case "user", "assistant":
		case "system":
			if rec.Subtype == "compact_boundary" {
				b.compaction()
				b.skip("compact_boundary")
			} else {
				b.skip("system")
			}
			continue
		case "":
			return d.errorf("missing \"type\"")
		default:
			b.skip(rec.Type)
			continue
		}
		side := 0
		if rec.IsSidechain {
			side = 1
		}
		if sidechain < 0 {
			sidechain = side
		}
		if side != sidechain {
			b.skip("sidechain")
			// Not this conversation's, but billed: its usage counts in
			// the recorded sums, once per call as in the conversation.
			if rec.Type == "assistant" && rec.Message != nil && rec.Message.Usage != nil {
				id := rec.Message.ID
				if id == "" {
					id = rec.UUID
				}
				if !unsentSeen[id] {
					u, err := rec.Message.Usage.parts()
					if err != nil {
						return d.errorf("message.usage: %w", err)
					}
					if u != nil {
						if _, err := u.checkedPrompt(); err != nil {
							return d.errorf("message.usage: %w", err)
						}
						unsentSeen[id] = true
						b.t.Unsent = append(b.t.Unsent, UnsentCall{Model: rec.Message.Model, Usage: *u})
					}
				}
			}
			continue
		}
		if rec.Message == nil {
			return d.errorf("a %s record needs \"message\"", rec.Type)
		}
		ts, err := ccTime(rec.Timestamp)
		if err != nil {
			return d.errorf("%q: %v", "timestamp", err)
		}
		c, err := rec.Message.parseContent()
		if err != nil {
			return d.errorf("message: %v", err)
		}
		for _, k := range c.skipped {
			b.skip(k)
		}
		if rec.Type == "user" {
			for _, m := range c.results {
				m.Timestamp = ts
				b.add(m, false)
			}
			if !c.isString && c.text == "" && c.images == 0 && c.hasResult {
				continue
			}
			harness := false
			for _, p := range ccHarnessPrefixes {
				if strings.HasPrefix(strings.TrimLeft(c.text, " \n"), p) {
					harness = true
				}
			}
			meta := rec.IsMeta || rec.IsCompactSummary || harness
			if rec.IsCompactSummary {
				b.compaction()
			}
			b.add(Message{Role: RoleUser, Text: c.text, Images: c.images, Timestamp: ts, Meta: meta}, !c.hasResult && !meta)
			continue
		}
		id := rec.Message.ID
		if id == "" {
			id = rec.UUID
		}
		if usage[id] == nil {
			// The first record with usage wins, as ccusage counts it.
			u, err := rec.Message.Usage.parts()
			if err != nil {
				return d.errorf("message.usage: %w", err)
			}
			usage[id] = u
		}
		if c.thinking != "" {
			thinking[id] += c.thinking
		}
		if c.text == "" && len(c.calls) == 0 && c.images == 0 && len(c.results) == 0 {
			// A thinking-only record: counted above, no message; its
			// thinking goes on the call's next message.
			continue
		}
		m := Message{Role: RoleAssistant, Text: c.text, Images: c.images, ToolCalls: c.calls, Timestamp: ts, Call: id, Model: rec.Message.Model, Thinking: thinking[id]}
		delete(thinking, id)
		if !usedUsage[id] && usage[id] != nil {
			if err := m.setUsage(usage[id]); err != nil {
				return d.errorf("message.usage: %w", err)
			}
			usedUsage[id] = true
		}
		b.add(m, false)
		for _, r := range c.results {
			r.Timestamp = ts
			b.add(r, false)
		}
	}
	return nil
}
