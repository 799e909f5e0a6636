package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/memtest"
)

// independentHAR is a HAR of n calls that each start their own
// conversation (distinct first prompts): before grouping was linear, each
// call was compared with every earlier conversation (16,000 entries took
// 94.5 s, 8,000 23.9 s, 4,000 7.7 s).
func independentHAR(n int) string {
	var b strings.Builder
	b.WriteString(`{"log":{"entries":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		req, _ := json.Marshal(fmt.Sprintf(`{"messages":[{"role":"user","content":"question %d: why is the build red?"}]}`, i))
		resp, _ := json.Marshal(fmt.Sprintf(`{"choices":[{"message":{"role":"assistant","content":"answer %d"}}],"usage":{"prompt_tokens":%d,"completion_tokens":2}}`, i, 10+i))
		fmt.Fprintf(&b, `{"request":{"method":"POST","url":"https://api.openai.com/v1/chat/completions","postData":{"mimeType":"application/json","text":%s}},"response":{"status":200,"content":{"mimeType":"application/json","text":%s}}}`, req, resp)
	}
	b.WriteString(`]}}`)
	return b.String()
}

// TestRecordingsLinear: 6,000 independent calls make 6,000 conversations
// of one call each (the ids "1" … "6000", each reply carrying its prompt
// size 10 + i), and a streamed reply of 100,000 Anthropic deltas of one
// letter is the 100,000 letters, each in work linear in the input, which
// the bytes allocated show: the input is 3 MB and 11 MB; comparing each
// call with every earlier conversation compacted about 6,000²/2 window
// pairs (some 3 GB of strings), and joining the deltas with += copies
// 100,000²/2 bytes (5 GB); before the fix these allocated 4,505 MB and
// (200,000 deltas) 20,383 MB. The bound, 1.5 GB, is far above the linear
// work and far below the quadratic.
func TestRecordingsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 3 MB and 20 MB inputs")
	}
	const n = 6000
	in := independentHAR(n)
	var ts []*Transcript
	var err error
	if a := memtest.Allocated(func() { ts, err = Read(strings.NewReader(in), "h.har", "") }); a > 1500<<20 {
		t.Errorf("%d independent calls allocated %d MB", n, a>>20)
	} else {
		t.Logf("%d independent calls allocated %d MB", n, a>>20)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != n {
		t.Fatalf("%d conversations, want %d", len(ts), n)
	}
	last := ts[n-1]
	if last.ID != fmt.Sprint(n) || len(last.Messages) != 2 || last.Messages[1].Text != fmt.Sprintf("answer %d", n-1) ||
		last.Messages[1].InputTokens == nil || *last.Messages[1].InputTokens != 10+n-1 {
		t.Errorf("last conversation %q: %+v", last.ID, last.Messages)
	}

	const deltas = 100000
	var sse strings.Builder
	sse.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}\n\n")
	sse.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
	for i := 0; i < deltas; i++ {
		fmt.Fprintf(&sse, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"%c\"}}\n\n", 'a'+i%26)
	}
	req, _ := json.Marshal(`{"messages":[{"role":"user","content":"Hi"}]}`)
	body, _ := json.Marshal(sse.String())
	har := fmt.Sprintf(`{"log":{"entries":[{"request":{"method":"POST","url":"https://api.anthropic.com/v1/messages","postData":{"mimeType":"application/json","text":%s}},"response":{"status":200,"content":{"mimeType":"text/event-stream","text":%s}}}]}}`, req, body)
	if a := memtest.Allocated(func() { ts, err = Read(strings.NewReader(har), "s.har", "") }); a > 1500<<20 {
		t.Errorf("%d deltas allocated %d MB", deltas, a>>20)
	} else {
		t.Logf("%d deltas allocated %d MB", deltas, a>>20)
	}
	if err != nil {
		t.Fatal(err)
	}
	m := ts[0].Messages
	if len(m) != 2 || len(m[1].Text) != deltas || !strings.HasPrefix(m[1].Text, "abcdefghijklmnopqrstuvwxyzab") {
		t.Errorf("reply of %d bytes, want %d", len(m[1].Text), deltas)
	}
}
