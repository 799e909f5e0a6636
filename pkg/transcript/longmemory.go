package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ---- long-memory chat sessions (LoCoMo style) ----

type lmTurn struct {
	Speaker string   `json:"speaker"`
	Text    string   `json:"text"`
	ImgURL  []string `json:"img_url"`
}

// readLongMemory reads long-memory chat samples: an array of (or one)
// {"sample_id", "conversation": {"speaker_a", "speaker_b", "session_N":
// [{speaker, text}], "session_N_date_time": "1:56 pm on 8 May, 2023"}}.
// Sessions are read in number order; speaker A is the user (each of their
// messages opens a turn), speaker B the assistant; every message of a
// session gets the session's date. The annotations beside the
// conversation (qa, summaries) are not part of it and are not read.
func readLongMemory(v json.RawMessage, name string) ([]*Transcript, error) {
	var samples []json.RawMessage
	array := bytes.TrimSpace(v)[0] == '['
	if array {
		if err := json.Unmarshal(v, &samples); err != nil {
			return nil, typeErrAt(name, "", err)
		}
	} else {
		samples = []json.RawMessage{v}
	}
	var out []*Transcript
	for i, raw := range samples {
		path := ""
		if array {
			path = fmt.Sprintf("[%d]", i)
		}
		t, err := longMemorySample(raw, name, path, i)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// streamLongMemory is [readLongMemory] one sample at a time: each is
// handed on (to [Scan]'s fn) once the next is read, so that it is known
// whether the file holds several. One sample, not in an array, is read
// whole.
func streamLongMemory(s *docStream) ([]*Transcript, error) {
	if !s.probe.array {
		v, err := s.whole()
		if err != nil {
			return nil, err
		}
		return readLongMemory(v, s.name)
	}
	// With Scan's fn each sample is emitted, and not kept, once the next
	// is read; without it they are all returned.
	var out []*Transcript
	var prev *Transcript
	n := 0
	err := s.elements("", func(i int, raw json.RawMessage) error {
		t, err := longMemorySample(raw, s.name, fmt.Sprintf("[%d]", i), i)
		if err != nil {
			return err
		}
		n++
		if s.scan == nil {
			out = append(out, t)
			return nil
		}
		if prev != nil {
			if err := s.emit(prev, i-1, true); err != nil {
				return err
			}
		}
		prev = t
		return nil
	})
	if err == nil && prev != nil {
		err = s.emit(prev, n-1, n > 1)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// longMemorySample reads sample i of a file, at path.
func longMemorySample(raw json.RawMessage, name, path string, i int) (*Transcript, error) {
	var s struct {
		SampleID     json.RawMessage            `json:"sample_id"`
		Conversation map[string]json.RawMessage `json:"conversation"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, typeErrAt(name, path, err)
	}
	b := newBuilder(FormatLongMemory)
	b.t.ID = argText(s.SampleID)
	if b.t.ID == "" {
		b.t.ID = strconv.Itoa(i)
	}
	var a, bName string
	_ = json.Unmarshal(s.Conversation["speaker_a"], &a)
	_ = json.Unmarshal(s.Conversation["speaker_b"], &bName)
	var sessions []int
	for k := range s.Conversation {
		if n, ok := strings.CutPrefix(k, "session_"); ok {
			if num, err := strconv.Atoi(n); err == nil {
				sessions = append(sessions, num)
			}
		}
	}
	sort.Ints(sessions)
	for _, n := range sessions {
		key := fmt.Sprintf("session_%d", n)
		spath := path + dot(path) + "conversation." + key
		var turns []lmTurn
		if err := json.Unmarshal(s.Conversation[key], &turns); err != nil {
			return nil, typeErrAt(name, spath, err)
		}
		var date string
		_ = json.Unmarshal(s.Conversation[key+"_date_time"], &date)
		ts, err := parseSessionDate(date)
		if err != nil {
			b.skip("unparsed_session_date")
		}
		for k, t := range turns {
			m := Message{Name: t.Speaker, Text: t.Text, Images: len(t.ImgURL), Timestamp: ts}
			switch t.Speaker {
			case a:
				m.Role = RoleUser
			case bName:
				m.Role = RoleAssistant
			default:
				return nil, errAt(name, fmt.Sprintf("%s[%d].speaker", spath, k), "speaker %q is neither speaker_a (%q) nor speaker_b (%q)", t.Speaker, a, bName)
			}
			b.add(m, m.Role == RoleUser)
		}
	}
	return b.finish(), nil
}

// parseSessionDate reads a session date such as "1:56 pm on 8 May, 2023"
// (no zone: read as UTC). "" gives the zero time.
func parseSessionDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{"3:04 pm on 2 January, 2006", "3:04 PM on 2 January, 2006", "3:04 pm on 2 Jan, 2006", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("session date %q not understood", s)
}

var longMemoryFormat = format{name: FormatLongMemory, doc: longMemoryDoc, document: readLongMemory,
	stream: streamLongMemory, keys: []string{"conversation"}, itemKeys: []string{"conversation"}, exts: []string{".json"}, archive: true,
	about: about{"long-memory chat samples (LoCoMo style)", "JSON, a conversation each", nil}}

// longMemoryDoc: a sample (or an array of them) whose "conversation" names
// "speaker_a".
func longMemoryDoc(p *docProbe) bool {
	return p.hasIn("conversation", "speaker_a") && !harDoc(p) && !shareGPTDoc(p) && !sweAgentDoc(p) && !openHandsDoc(p)
}
