package transcript

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// gzipOf compresses n zero bytes.
func gzipOf(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zero := make([]byte, 1<<16)
	for n > 0 {
		k := min(n, len(zero))
		zw.Write(zero[:k])
		n -= k
	}
	zw.Close()
	return buf.Bytes()
}

func harOf(bodies ...[]byte) string {
	var entries []any
	for _, b := range bodies {
		entries = append(entries, map[string]any{
			"request":  map[string]any{"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "postData": map[string]any{"mimeType": "application/json", "text": `{"messages":[{"role":"user","content":"Hi"}]}`}},
			"response": map[string]any{"status": 200, "content": map[string]any{"mimeType": "application/json", "encoding": "base64", "text": base64.StdEncoding.EncodeToString(b)}},
		})
	}
	doc, _ := json.Marshal(map[string]any{"log": map[string]any{"entries": entries}})
	return string(doc)
}

func cassetteOf(bodies ...[]byte) string {
	var b strings.Builder
	b.WriteString("interactions:\n")
	for _, body := range bodies {
		b.WriteString("- request:\n    uri: https://api.openai.com/v1/chat/completions\n    body: '{\"messages\":[]}'\n" +
			"  response:\n    status: {code: 200}\n    body:\n      string: !!binary |\n        " + base64.StdEncoding.EncodeToString(body) + "\n")
	}
	return b.String()
}

// TestGzipBombs: gzip bodies (HAR encoding: base64, VCR !!binary) decode
// within a limit per body and one per file, and an error names the file,
// the entry and the limit. The limits are lowered to 1 MiB per body and
// 3 MiB per file so the bombs stay small: a body of 1 MiB + 1 byte of
// zeros crosses the first; four bodies of 1 MiB cross the second at the
// fourth (3 MiB used by the first three).
func TestGzipBombs(t *testing.T) {
	defer func(a, b int64) { maxBody, maxBodies = a, b }(maxBody, maxBodies)
	maxBody, maxBodies = 1<<20, 3<<20
	over := gzipOf(t, 1<<20+1)
	full := gzipOf(t, 1<<20)
	tests := []struct{ name, in, want string }{
		{"har body", harOf(over), "h: log.entries[0].response.content.text: gzip body decodes past 1 MiB (the limit for one recorded body)"},
		{"har file", harOf(full, full, full, full), "h: log.entries[3].response.content.text: gzip bodies decode past 3 MiB in all (the limit for one file)"},
		{"vcr body", cassetteOf(over), "h: interactions[0].response.body: gzip body decodes past 1 MiB (the limit for one recorded body)"},
		{"vcr file", cassetteOf(full, full, full, full), "h: interactions[3].response.body: gzip bodies decode past 3 MiB in all (the limit for one file)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), "h", "")
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v\nwant %s", err, tc.want)
			}
		})
	}
	// Under the limits, a body of exactly 1 MiB reads (it is no chat
	// response, so the call has no reply, but no error).
	if _, err := Read(strings.NewReader(harOf(full)), "h", ""); err != nil {
		t.Errorf("1 MiB body: %v", err)
	}
}

// TestCassetteAliasBomb: a 1 MiB scalar anchored once and aliased 1,000
// times (a 1 MB cassette decoding to 1 GB; yaml.v3's alias guard counts
// nodes, not bytes) is refused before decoding, quickly, naming the line
// of the alias that carries the expansion past 4 × the size + 1 MiB. The
// document is 1,048,576 + 7,041 = 1,055,617 bytes, so the limit is
// 4 × 1,055,617 + 1,048,576 = 5,271,044. The anchor (line 2) counts its
// 1,048,576 bytes + 1, each alias as much again: with 4 aliases
// 5 × 1,048,577 = 5,242,885 plus a few dozen bytes of keys stays under;
// the 5th alias (line 8: aliases start on line 4) makes 6,291,462.
func TestCassetteAliasBomb(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	doc := "interactions:\n- system: &b \"" + big + "\"\n  content:\n" + strings.Repeat("  - *b\n", 1000)
	start := time.Now()
	_, err := Read(strings.NewReader(doc), "c.yaml", "")
	if err == nil || !strings.HasPrefix(err.Error(), "c.yaml:8: its aliases expand it past 5271044 bytes ") {
		t.Fatalf("error %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	// An interaction repeated by alias: each repeat re-decodes the body.
	one := cassetteOf(gzipOf(t, 1000))
	rep := strings.Replace(one, "- request:", "- &i\n  request:", 1) + strings.Repeat("- *i\n", 3)
	if _, err := Read(strings.NewReader(rep), "c.yaml", ""); err != nil {
		t.Errorf("3 aliases of a small interaction: %v", err)
	}
}
