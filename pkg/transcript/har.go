package transcript

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// harEntry is one entry of a HAR's log.entries, as far as it is read.
type harEntry struct {
	Request struct {
		Method   string `json:"method"`
		URL      string `json:"url"`
		PostData *struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status  int `json:"status"`
		Content struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
}

// harDocument is a HAR's frame, its entries aside.
type harDocument struct {
	Log *struct {
		Entries []json.RawMessage `json:"entries"`
	} `json:"log"`
}

// readHAR reads an HTTP Archive 1.2: log.entries[] of {request: {method,
// url, postData: {mimeType, text}}, response: {status, content:
// {mimeType, text, encoding?}}}. Each entry with a provider API (from the
// url) is one call; a text/event-stream response is assembled from its
// events, the usage from the last ones that carry it. Other entries are
// counted in Skipped as "entry".
func readHAR(v json.RawMessage, name string) ([]*Transcript, error) {
	var doc harDocument
	if err := json.Unmarshal(v, &doc); err != nil {
		return nil, typeErrAt(name, "", err)
	}
	if doc.Log == nil || doc.Log.Entries == nil {
		return nil, errAt(name, "log", "no \"entries\" array")
	}
	h := newHARReader(name)
	if err := eachRecord(doc.Log.Entries, h.entry); err != nil {
		return nil, err
	}
	return h.calls.finish(FormatHAR, h.skipped)
}

// harStream is [readHAR] one entry at a time: the entries are not held,
// and of the calls they record only what [recordings] keeps. A HAR whose log it cannot take as it stands (no
// "entries" array, "log" given twice) is left to readHAR.
func harStream(s *docStream) ([]*Transcript, error) {
	var doc harDocument
	if s.probe.array || s.probe.count["log"] != 1 || json.Unmarshal(mustRaw(s.top()), &doc) != nil ||
		doc.Log == nil || doc.Log.Entries == nil || !s.plain("log.entries") {
		return nil, errStreamFallback
	}
	h := newHARReader(s.name)
	if err := s.elements("log.entries", h.entry); err != nil {
		return nil, err
	}
	return h.calls.finish(FormatHAR, h.skipped)
}

// harReader gathers the calls of a HAR's entries.
type harReader struct {
	name    string
	calls   recordings
	bodies  bodyDecoder
	skipped map[string]int
}

func newHARReader(name string) *harReader {
	return &harReader{name: name, calls: recordings{name: name}, skipped: map[string]int{}}
}

// entry reads entry i.
func (h *harReader) entry(i int, raw json.RawMessage) error {
	var e harEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		// Named as a whole read of the document names it.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			te.Field = strings.TrimSuffix("log.entries."+te.Field, ".")
		}
		return typeErrAt(h.name, "", err)
	}
	where := fmt.Sprintf("log.entries[%d]", i)
	api := apiOf(e.Request.URL)
	if api == "" || e.Request.PostData == nil {
		h.skipped["entry"]++
		return nil
	}
	if e.Response.Status >= 400 {
		h.skipped["entry:error"]++
		return nil
	}
	body := []byte(e.Response.Content.Text)
	if e.Response.Content.Encoding == "base64" {
		d, err := base64.StdEncoding.DecodeString(e.Response.Content.Text)
		if err != nil {
			return errAt(h.name, where+".response.content.text", "base64: %v", err)
		}
		if body, err = h.bodies.gunzip(d); err != nil {
			return errAt(h.name, where+".response.content.text", "%v", err)
		}
	}
	stream := strings.Contains(e.Response.Content.MimeType, "event-stream")
	return h.calls.add(recorded{where: where, api: api, request: []byte(e.Request.PostData.Text), response: body, stream: stream})
}

var harFormat = format{name: FormatHAR, doc: harDoc, document: readHAR, stream: harStream,
	keys: []string{"log"}, exts: []string{".har", ".json"}, archive: true, errorsNameFound: true,
	about: about{"HTTP Archive 1.2 (browsers, proxies)", "JSON (.har)", nil}}

// harDoc: an object whose "log" has "entries".
func harDoc(p *docProbe) bool { return !p.array && p.hasIn("log", "entries") }
