package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/provider"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// stub is a Chat Completions API on 127.0.0.1 that answers the recorded
// responses in turn (then 500) and keeps every request body.
type stub struct {
	mu        sync.Mutex
	responses []json.RawMessage
	bodies    [][]byte
}

func (s *stub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/chat/completions" || len(s.bodies) >= len(s.responses) {
		http.Error(w, `{"error":{"message":"no more recorded responses","type":"server_error"}}`, http.StatusInternalServerError)
		return
	}
	s.bodies = append(s.bodies, body)
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.responses[len(s.bodies)-1])
}

func newStub(t *testing.T) (*stub, openai.Client) {
	t.Helper()
	b, err := os.ReadFile("testdata/responses.json")
	if err != nil {
		t.Fatal(err)
	}
	s := &stub{}
	if err := json.Unmarshal(b, &s.responses); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("stub at %s, not on 127.0.0.1", srv.URL)
	}
	return s, openai.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
}

// sent is a request body as the test reads it.
type sent struct {
	Model    string                   `json:"model"`
	Messages []provider.OpenAIMessage `json:"messages"`
}

// TestAgentLoop runs the loop against the stub under several strategies
// and checks every request the SDK sent: its messages are what the live
// context rendered (provider.OpenAIRequestFor writes the reference), and
// each assistant message's tool calls are answered by the tool messages
// right after it, each tool message answering a call of the assistant
// message before them.
func TestAgentLoop(t *testing.T) {
	for _, spec := range []string{"full", "clear:trigger=1500:keep=1", "clear:trigger=1500:keep=1:inputs", "mask:keep=1",
		"windowed:chars=3000+clear:trigger=1500", "clear:auto", "limit:bytes=600"} {
		t.Run(spec, func(t *testing.T) {
			st, client := newStub(t)
			c, err := live.NewSpec(spec, live.Config{System: "You are a careful assistant with a read_file tool.", Model: "gpt-5"})
			if err != nil {
				t.Fatal(err)
			}
			var rendered []provider.OpenAIRequest
			a := &Agent{Client: client, Model: "gpt-5", Context: c, Tools: map[string]Tool{"read_file": readFile},
				Schemas: []openai.ChatCompletionToolUnionParam{readFileSchema}, MaxCalls: 10,
				OnRender: func(s *live.Snapshot) {
					rendered = append(rendered, provider.OpenAIRequestFor(window.Rendered{System: s.System, Messages: slices.Clone(s.Messages)}))
				}}
			answer, err := a.Run(context.Background(), "Sum the values in a.txt, b.txt, c.txt and d.txt.")
			if err != nil {
				t.Fatal(err)
			}
			if answer != "The values are 12, 30, 41 and 17: the sum is 100." {
				t.Fatalf("answer %q", answer)
			}
			if len(st.bodies) != 4 || len(rendered) != 4 {
				t.Fatalf("%d requests, %d renders, want 4", len(st.bodies), len(rendered))
			}
			placeholders := 0
			for i, body := range st.bodies {
				var s sent
				if err := json.Unmarshal(body, &s); err != nil {
					t.Fatal(err)
				}
				if s.Model != "gpt-5" {
					t.Errorf("request %d: model %q", i+1, s.Model)
				}
				gb, _ := json.Marshal(s.Messages)
				wb, _ := json.Marshal(rendered[i].Messages)
				if !bytes.Equal(gb, wb) {
					t.Errorf("request %d:\nsent     %s\nrendered %s", i+1, gb, wb)
				}
				checkPairs(t, i+1, s.Messages)
				placeholders += bytes.Count(body, []byte("[tool result cleared]")) + bytes.Count(body, []byte("omitted:")) + bytes.Count(body, []byte("[truncated:"))
			}
			if spec != "full" && spec != "clear:auto" && placeholders == 0 {
				t.Errorf("%s edited nothing: the test would not see a placeholder", spec)
			}
		})
	}
}

// checkPairs: the tool messages after an assistant message answer its
// calls, all of them, and no tool message comes anywhere else.
func checkPairs(t *testing.T, n int, msgs []provider.OpenAIMessage) {
	t.Helper()
	for k := 0; k < len(msgs); k++ {
		m := msgs[k]
		if m.Role == "tool" {
			t.Errorf("request %d: tool message %s not right after its call", n, m.ToolCallID)
			continue
		}
		if len(m.ToolCalls) == 0 {
			continue
		}
		var answered []string
		for k+1 < len(msgs) && msgs[k+1].Role == "tool" {
			k++
			answered = append(answered, msgs[k].ToolCallID)
		}
		last := k == len(msgs)-1 && len(answered) == 0
		for _, tc := range m.ToolCalls {
			if !last && !slices.Contains(answered, tc.ID) {
				t.Errorf("request %d: tool call %s unanswered", n, tc.ID)
			}
		}
		for _, id := range answered {
			if !slices.ContainsFunc(m.ToolCalls, func(tc provider.OpenAIToolCall) bool { return tc.ID == id }) {
				t.Errorf("request %d: tool message %s answers no call of the message before", n, id)
			}
		}
	}
}

// TestFailedCallAborts: a call that fails aborts the turn, which leaves
// the context: the next turn's request does not send it.
func TestFailedCallAborts(t *testing.T) {
	st, client := newStub(t)
	st.responses = st.responses[:0] // every call fails
	c, err := live.NewSpec("full", live.Config{System: "sys"})
	if err != nil {
		t.Fatal(err)
	}
	a := &Agent{Client: client, Model: "gpt-5", Context: c, MaxCalls: 3}
	if _, err := a.Run(context.Background(), "first"); err == nil {
		t.Fatal("no error from a failing server")
	}
	c.Begin(live.Message{Role: "user", Text: "second"})
	s, err := c.Render(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// 0 the system prompt, 1 "first" (aborted), 2 "second".
	if want := (window.Indices{0, 2}); !slices.Equal(s.Window, want) {
		t.Fatalf("window %v, want %v", s.Window, want)
	}
}
