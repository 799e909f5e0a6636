package transcript

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// readHAR reads an HTTP Archive 1.2: log.entries[] of {request: {method,
// url, postData: {mimeType, text}}, response: {status, content:
// {mimeType, text, encoding?}}}. Each entry with a provider API (from the
// url) is one call; a text/event-stream response is assembled from its
// events, the usage from the last ones that carry it. Other entries are
// counted in Skipped as "entry".
func readHAR(v json.RawMessage, name string) ([]*Transcript, error) {
	var doc struct {
		Log *struct {
			Entries []struct {
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
			} `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal(v, &doc); err != nil {
		return nil, typeErrAt(name, "", err)
	}
	if doc.Log == nil || doc.Log.Entries == nil {
		return nil, errAt(name, "log", "no \"entries\" array")
	}
	var recs []recorded
	var bodies bodyDecoder
	skipped := map[string]int{}
	for i, e := range doc.Log.Entries {
		where := fmt.Sprintf("log.entries[%d]", i)
		api := apiOf(e.Request.URL)
		if api == "" || e.Request.PostData == nil {
			skipped["entry"]++
			continue
		}
		if e.Response.Status >= 400 {
			skipped["entry:error"]++
			continue
		}
		body := []byte(e.Response.Content.Text)
		if e.Response.Content.Encoding == "base64" {
			d, err := base64.StdEncoding.DecodeString(e.Response.Content.Text)
			if err != nil {
				return nil, errAt(name, where+".response.content.text", "base64: %v", err)
			}
			if body, err = bodies.gunzip(d); err != nil {
				return nil, errAt(name, where+".response.content.text", "%v", err)
			}
		}
		stream := strings.Contains(e.Response.Content.MimeType, "event-stream")
		recs = append(recs, recorded{where: where, api: api, request: []byte(e.Request.PostData.Text), response: body, stream: stream})
	}
	return readRecordings(name, FormatHAR, recs, skipped)
}

var harFormat = format{name: FormatHAR, doc: harDoc, document: readHAR}

// harDoc: an object whose "log" has "entries".
func harDoc(p *docProbe) bool { return !p.array && p.hasIn("log", "entries") }
