package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"time"
)

// gjRecord is one message record of a Gemini CLI JSONL session, as last
// written, with the line it was read from.
type gjRecord struct {
	id   string
	raw  json.RawMessage
	line int
}

// readGeminiJSONL reads a Gemini CLI session in its JSON Lines shape
// (Gemini CLI 0.39 and later): a header line (sessionId, projectHash,
// startTime, kind, …), then message records, each written again in full,
// under the same id, whenever its tool calls, results or tokens change,
// and patch lines: {"$set": {…}} changes the session's fields (with
// "messages", it replaces the whole list), {"$rewindTo": id} drops the
// message named and every one after it (an id it does not hold drops
// them all). The file is folded as Gemini CLI folds it when it resumes
// the session, then read as the single-document session is
// ([readGeminiCLI]), except that the "<session_context>" user record
// Gemini CLI writes first (in a $set of messages) is meta, not a prompt.
// A reply dropped by a rewind or a replaced list was
// still answered, and billed: its usage is kept as an unsent call
// ([Transcript.Unsent]). Holding the fold, memory grows with the session.
func readGeminiJSONL(d *lineDecoder, b *builder) error {
	var recs []gjRecord
	var dropped []gjRecord
	for {
		if _, err := d.next(); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		var obj map[string]json.RawMessage
		if err := d.decode(&obj); err == errLineSkipped {
			continue
		} else if err != nil {
			return err
		}
		switch {
		case obj["$rewindTo"] != nil:
			var id string
			if err := json.Unmarshal(obj["$rewindTo"], &id); err != nil {
				return d.errorf("\"$rewindTo\" must be a message id (a string)")
			}
			at := 0
			for i, r := range recs {
				if r.id == id {
					at = i
					break
				}
			}
			dropped = append(dropped, recs[at:]...)
			recs = recs[:at]
			b.skip("$rewindTo")
		case isString(obj["id"]):
			r := gjRecord{id: str(obj["id"]), raw: bytes.Clone(d.data), line: d.line}
			if i := slices.IndexFunc(recs, func(o gjRecord) bool { return o.id == r.id }); i >= 0 {
				recs[i] = r // written again: the last version stands, in the first one's place
			} else {
				recs = append(recs, r)
			}
		case obj["$set"] != nil:
			var set map[string]json.RawMessage
			if err := json.Unmarshal(obj["$set"], &set); err != nil {
				return d.errorf("\"$set\" must be an object")
			}
			if set["messages"] != nil {
				list, err := d.messageList(set["messages"], "$set.messages")
				if err != nil {
					return err
				}
				// The records the new list no longer holds are dropped;
				// those it keeps (same id) stay, billed once.
				for _, r := range recs {
					if !slices.ContainsFunc(list, func(o gjRecord) bool { return o.id == r.id }) {
						dropped = append(dropped, r)
					}
				}
				recs = list
			}
			b.skip("$set")
		case isString(obj["sessionId"]) && isString(obj["projectHash"]):
			// The header; a session written whole on one line has its
			// messages here.
			if obj["messages"] != nil {
				list, err := d.messageList(obj["messages"], "messages")
				if err != nil {
					return err
				}
				recs = append(recs, list...)
			}
			b.skip("header")
		default:
			b.skip("record")
		}
	}
	each := geminiCLIRecords(b, d.name)
	for i, r := range recs {
		if text, ts, ok := sessionContext(r.raw); ok {
			// Context Gemini CLI sends ahead of the first prompt: meta, no turn.
			b.add(Message{Role: RoleUser, Text: text, Meta: true, Timestamp: ts}, false)
			continue
		}
		if err := each(i, r.raw); err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Line, e.Path = r.line, ""
			}
			return err
		}
	}
	for _, r := range dropped {
		if c, ok := geminiJSONLCall(r.raw); ok {
			b.t.Unsent = append(b.t.Unsent, c)
		}
	}
	return nil
}

// sessionContext is the text of a user record that holds the context
// Gemini CLI writes at the start of a session (the directory listing, the
// date, the OS: "<session_context>…"), with ok; ok is false for any other
// record (or one whose timestamp does not read).
func sessionContext(raw json.RawMessage) (string, time.Time, bool) {
	var m struct {
		Type      string          `json:"type"`
		Content   json.RawMessage `json:"content"`
		Timestamp json.RawMessage `json:"timestamp"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Type != "user" {
		return "", time.Time{}, false
	}
	text, _, err := geminiCLIContent(m.Content)
	if err != nil || !strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "<session_context>") {
		return "", time.Time{}, false
	}
	ts, err := parseTime(m.Timestamp)
	return text, ts, err == nil
}

// messageList reads an array of message records held in one line.
func (d *lineDecoder) messageList(raw json.RawMessage, what string) ([]gjRecord, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, d.errorf("%q must be an array of messages", what)
	}
	out := make([]gjRecord, 0, len(list))
	for _, m := range list {
		var o map[string]json.RawMessage
		if json.Unmarshal(m, &o) != nil || !isString(o["id"]) {
			continue // Gemini CLI keeps only the records with an id
		}
		r := gjRecord{id: str(o["id"]), raw: m, line: d.line}
		if i := slices.IndexFunc(out, func(o gjRecord) bool { return o.id == r.id }); i >= 0 {
			out[i] = r
		} else {
			out = append(out, r)
		}
	}
	return out, nil
}

// isString reports whether v is a JSON string.
func isString(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '"'
}

// geminiJSONLCall is the usage of a reply record no longer in the
// session, when it records one.
func geminiJSONLCall(raw json.RawMessage) (UnsentCall, bool) {
	var m gcMessage
	if json.Unmarshal(raw, &m) != nil || m.Type != "gemini" || m.Tokens == nil || m.Tokens.Input == nil {
		return UnsentCall{}, false
	}
	t := m.Tokens
	if nonNegative(count{"input", *t.Input}, count{"output", t.Output}, count{"cached", t.Cached}, count{"thoughts", t.Thoughts}) != nil {
		return UnsentCall{}, false
	}
	out, err := geminiOutput(t.Output, t.Thoughts, "tokens.output", "tokens.thoughts")
	if err != nil {
		return UnsentCall{}, false
	}
	ts, _ := parseTime(m.Timestamp)
	return UnsentCall{Model: m.Model, Time: ts, Usage: *openAIParts(*t.Input, t.Cached, out)}, true
}

// geminiJSONLLine: the header of a Gemini CLI JSONL session (a string
// sessionId and projectHash, no message id, and no "messages": Gemini CLI
// writes the header without them, and a session with its messages on one
// line is the document form), or a patch line.
func geminiJSONLLine(obj map[string]json.RawMessage) bool {
	if isString(obj["$rewindTo"]) || obj["$set"] != nil && bytes.HasPrefix(bytes.TrimSpace(obj["$set"]), []byte("{")) {
		return true
	}
	return isString(obj["sessionId"]) && isString(obj["projectHash"]) && obj["id"] == nil && obj["messages"] == nil
}
