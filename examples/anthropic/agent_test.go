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

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/provider"
)

// stub is a Messages API on 127.0.0.1 that answers the recorded
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
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" || len(s.bodies) >= len(s.responses) {
		http.Error(w, `{"type":"error","error":{"type":"api_error","message":"no more recorded responses"}}`, http.StatusInternalServerError)
		return
	}
	s.bodies = append(s.bodies, body)
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.responses[len(s.bodies)-1])
}

func newStub(t *testing.T) (*stub, anthropic.Client) {
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
	return s, anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
}

// sent is a request body as the test reads it.
type sent struct {
	Model     string `json:"model"`
	MaxTokens int    `json:"max_tokens"`
	System    []struct {
		Type         string          `json:"type"`
		Text         string          `json:"text"`
		CacheControl json.RawMessage `json:"cache_control"`
	} `json:"system"`
	Messages []struct {
		Role    string `json:"role"`
		Content []struct {
			Type         string          `json:"type"`
			Text         string          `json:"text"`
			ID           string          `json:"id"`
			Name         string          `json:"name"`
			Input        json.RawMessage `json:"input"`
			ToolUseID    string          `json:"tool_use_id"`
			Content      json.RawMessage `json:"content"`
			CacheControl json.RawMessage `json:"cache_control"`
		} `json:"content"`
	} `json:"messages"`
}

// blocks returns the body's messages in provider.AnthropicRequest's terms:
// a tool_result's content as its text, inputs compacted.
func (s *sent) request(t *testing.T) provider.AnthropicRequest {
	var sys []string
	for _, b := range s.System {
		sys = append(sys, b.Text)
	}
	out := provider.AnthropicRequest{System: strings.Join(sys, ""), Messages: []provider.AnthropicMessage{}}
	for _, m := range s.Messages {
		am := provider.AnthropicMessage{Role: m.Role}
		for _, b := range m.Content {
			ab := provider.AnthropicBlock{Type: b.Type, Text: b.Text, ID: b.ID, Name: b.Name, ToolUseID: b.ToolUseID}
			if len(b.Input) > 0 {
				var c bytes.Buffer
				if err := json.Compact(&c, b.Input); err != nil {
					t.Fatal(err)
				}
				ab.Input = c.Bytes()
			}
			if len(b.Content) > 0 {
				var parts []struct{ Text string }
				if err := json.Unmarshal(b.Content, &ab.Content); err != nil {
					if err := json.Unmarshal(b.Content, &parts); err != nil {
						t.Fatalf("tool_result content %s", b.Content)
					}
					for _, p := range parts {
						ab.Content += p.Text
					}
				}
			}
			am.Content = append(am.Content, ab)
		}
		out.Messages = append(out.Messages, am)
	}
	return out
}

// TestAgentLoop runs the loop against the stub under several strategies
// and checks every request the SDK sent: its system and messages are
// what the live context rendered (provider.AnthropicRequestFor writes the
// reference), each tool_use is answered by its tool_result in the next
// message and each tool_result answers a tool_use of the message before,
// and the cache breakpoints are on the system part and the last block.
func TestAgentLoop(t *testing.T) {
	for _, spec := range []string{"full", "clear:trigger=1500:keep=1", "clear:trigger=1500:keep=1:inputs", "mask:keep=1",
		"windowed:chars=3000+clear:trigger=1500", "clear:auto", "limit:bytes=600"} {
		t.Run(spec, func(t *testing.T) {
			st, client := newStub(t)
			c, err := live.NewSpec(spec, live.Config{System: "You are a careful assistant with a read_file tool.", Model: "claude-sonnet-4-5"})
			if err != nil {
				t.Fatal(err)
			}
			var rendered []provider.AnthropicRequest
			a := &Agent{Client: client, Model: "claude-sonnet-4-5", MaxTokens: 512, Context: c,
				Tools: map[string]Tool{"read_file": readFile}, Schemas: []anthropic.ToolUnionParam{readFileSchema}, MaxCalls: 10,
				OnRender: func(s *live.Snapshot) {
					rendered = append(rendered, provider.AnthropicRequestFor(window.Rendered{System: s.System, Messages: slices.Clone(s.Messages)}))
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
				if s.Model != "claude-sonnet-4-5" || s.MaxTokens != 512 {
					t.Errorf("request %d: model %q max_tokens %d", i+1, s.Model, s.MaxTokens)
				}
				got, want := s.request(t), rendered[i]
				gb, _ := json.Marshal(got)
				wb, _ := json.Marshal(want)
				if !bytes.Equal(gb, wb) {
					t.Errorf("request %d:\nsent     %s\nrendered %s", i+1, gb, wb)
				}
				checkPairs(t, i+1, got)
				if len(s.System) != 1 || len(s.System[0].CacheControl) == 0 {
					t.Errorf("request %d: system %+v, want one block with cache_control", i+1, s.System)
				}
				last := s.Messages[len(s.Messages)-1].Content
				if len(last[len(last)-1].CacheControl) == 0 {
					t.Errorf("request %d: no cache_control on the last block", i+1)
				}
				placeholders += bytes.Count(body, []byte("[tool result cleared]")) + bytes.Count(body, []byte("omitted:")) + bytes.Count(body, []byte("[truncated:"))
			}
			if spec != "full" && spec != "clear:auto" && placeholders == 0 {
				t.Errorf("%s edited nothing: the test would not see a placeholder", spec)
			}
		})
	}
}

// checkPairs: every tool_use of an assistant message is answered in the
// next message, and every tool_result answers a tool_use of the message
// just before it.
func checkPairs(t *testing.T, n int, r provider.AnthropicRequest) {
	t.Helper()
	for k, m := range r.Messages {
		for _, b := range m.Content {
			switch b.Type {
			case "tool_use":
				if k+1 < len(r.Messages) && !slices.ContainsFunc(r.Messages[k+1].Content, func(x provider.AnthropicBlock) bool {
					return x.Type == "tool_result" && x.ToolUseID == b.ID
				}) {
					t.Errorf("request %d: tool_use %s has no result in the next message", n, b.ID)
				}
			case "tool_result":
				if k == 0 || !slices.ContainsFunc(r.Messages[k-1].Content, func(x provider.AnthropicBlock) bool {
					return x.Type == "tool_use" && x.ID == b.ToolUseID
				}) {
					t.Errorf("request %d: tool_result %s without its tool_use just before", n, b.ToolUseID)
				}
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
	a := &Agent{Client: client, Model: "claude-sonnet-4-5", MaxTokens: 64, Context: c, MaxCalls: 3}
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
