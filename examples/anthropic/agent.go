// Command anthropic is a tool-using agent loop on the Anthropic Messages
// API (github.com/anthropics/anthropic-sdk-go) whose every request is
// chosen by harpe's live context (package live): the context renders the
// system part and the messages, this program turns them into the SDK's
// request (a cache_control breakpoint on the system part and on the last
// block), calls the API, reports the usage back, and adds the reply and
// the tool results.
//
//	ANTHROPIC_API_KEY=… go run . --strategy clear:auto "Sum the numbers in the files"
//
// Its test runs the loop against a local stub server answering recorded
// responses, offline.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Tool runs one tool call on its JSON input and returns its output.
type Tool func(input json.RawMessage) (string, error)

// Agent is the loop: a client, the model, the live context, the tools.
type Agent struct {
	Client    anthropic.Client
	Model     anthropic.Model
	MaxTokens int64
	Context   *live.Context
	Tools     map[string]Tool
	Schemas   []anthropic.ToolUnionParam
	// MaxCalls bounds the model calls of one turn.
	MaxCalls int
	// OnRender, when set, sees each snapshot before it is sent.
	OnRender func(*live.Snapshot)
}

// Run runs one turn: the user's prompt, then model calls and tool calls
// until the model answers without calling a tool. A failed call aborts
// the turn, which then leaves the context.
func (a *Agent) Run(ctx context.Context, prompt string) (string, error) {
	a.Context.Begin(transcript.Message{Role: transcript.RoleUser, Text: prompt})
	for n := 0; n < a.MaxCalls; n++ {
		s, err := a.Context.Render(ctx)
		if err != nil {
			a.Context.Abort()
			return "", err
		}
		if a.OnRender != nil {
			a.OnRender(s)
		}
		msg, err := a.Client.Messages.New(ctx, anthropic.MessageNewParams{
			Model: a.Model, MaxTokens: a.MaxTokens, Tools: a.Schemas,
			System: systemOf(s.System), Messages: messagesOf(s.Messages),
		})
		if err != nil {
			a.Context.Abort()
			return "", err
		}
		u := msg.Usage
		a.Context.Observe(live.Usage{Input: int(u.InputTokens), CacheRead: int(u.CacheReadInputTokens),
			CacheWrite: int(u.CacheCreationInputTokens), Output: int(u.OutputTokens)})
		reply := transcript.Message{Role: transcript.RoleAssistant, Call: msg.ID}
		var texts []string
		for _, b := range msg.Content {
			switch b.Type {
			case "text":
				texts = append(texts, b.Text)
			case "tool_use":
				reply.ToolCalls = append(reply.ToolCalls, transcript.ToolCall{ID: b.ID, Name: b.Name, Arguments: string(b.Input)})
			}
		}
		reply.Text = strings.Join(texts, "\n")
		a.Context.Add(reply)
		if len(reply.ToolCalls) == 0 {
			a.Context.Commit()
			return reply.Text, nil
		}
		for _, tc := range reply.ToolCalls {
			out := "unknown tool " + tc.Name
			if tool, ok := a.Tools[tc.Name]; ok {
				if out, err = tool(json.RawMessage(tc.Arguments)); err != nil {
					out = "error: " + err.Error()
				}
			}
			a.Context.Add(transcript.Message{Role: transcript.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Text: out})
		}
	}
	a.Context.Abort()
	return "", fmt.Errorf("no answer after %d calls", a.MaxCalls)
}

// systemOf is the system part as one text block with a cache breakpoint.
func systemOf(system string) []anthropic.TextBlockParam {
	if system == "" {
		return nil
	}
	return []anthropic.TextBlockParam{{Text: system, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
}

// messagesOf turns the rendered messages into the API's: consecutive
// messages of one role joined (the tool results of a reply in one user
// message, after the assistant message holding their calls), and a
// cache breakpoint on the last block, so the next call reads all this
// one sent from the cache.
func messagesOf(msgs []transcript.Message) []anthropic.MessageParam {
	type turn struct {
		assistant bool
		blocks    []anthropic.ContentBlockParamUnion
	}
	var turns []turn
	for _, m := range msgs {
		assistant := false
		var blocks []anthropic.ContentBlockParamUnion
		switch {
		case m.ToolCallID != "":
			blocks = append(blocks, anthropic.NewToolResultBlock(m.ToolCallID, m.Text, false))
		case m.Role == transcript.RoleAssistant:
			assistant = true
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, tc := range m.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(tc.ID, json.RawMessage(orEmpty(tc.Arguments)), tc.Name))
			}
		case m.Text != "":
			blocks = append(blocks, anthropic.NewTextBlock(m.Text))
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(turns); n > 0 && turns[n-1].assistant == assistant {
			turns[n-1].blocks = append(turns[n-1].blocks, blocks...)
			continue
		}
		turns = append(turns, turn{assistant, blocks})
	}
	out := make([]anthropic.MessageParam, len(turns))
	for i, t := range turns {
		if i == len(turns)-1 {
			if cc := t.blocks[len(t.blocks)-1].GetCacheControl(); cc != nil {
				*cc = anthropic.NewCacheControlEphemeralParam()
			}
		}
		if t.assistant {
			out[i] = anthropic.NewAssistantMessage(t.blocks...)
		} else {
			out[i] = anthropic.NewUserMessage(t.blocks...)
		}
	}
	return out
}

// orEmpty is args, or {} for none.
func orEmpty(args string) string {
	if strings.TrimSpace(args) == "" {
		return "{}"
	}
	return args
}

// readFile is the example's one tool: it reads a file named by "path".
func readFile(input json.RawMessage) (string, error) {
	var in struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return "", err
	}
	b, err := os.ReadFile(in.Path)
	return string(b), err
}

// readFileSchema describes readFile to the model.
var readFileSchema = anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
	Name:        "read_file",
	Description: anthropic.String("Read a file and return its contents."),
	InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{"path": map[string]any{"type": "string"}}, Required: []string{"path"}},
}}

func main() {
	spec := flag.String("strategy", "clear:auto", "harpe strategy `SPEC` choosing each request's messages")
	model := flag.String("model", "claude-sonnet-4-5", "`MODEL` to call")
	flag.Parse()
	if flag.NArg() != 1 || os.Getenv("ANTHROPIC_API_KEY") == "" {
		fmt.Fprintln(os.Stderr, "usage: ANTHROPIC_API_KEY=… anthropic [--strategy SPEC] PROMPT")
		os.Exit(2)
	}
	c, err := live.NewSpec(*spec, live.Config{System: "You are a careful assistant with a read_file tool.", Model: *model})
	if err != nil {
		fmt.Fprintln(os.Stderr, "anthropic:", err)
		os.Exit(2)
	}
	a := &Agent{Client: anthropic.NewClient(option.WithAPIKey(os.Getenv("ANTHROPIC_API_KEY"))), Model: anthropic.Model(*model),
		MaxTokens: 1024, Context: c, Tools: map[string]Tool{"read_file": readFile},
		Schemas: []anthropic.ToolUnionParam{readFileSchema}, MaxCalls: 20}
	answer, err := a.Run(context.Background(), flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "anthropic:", err)
		os.Exit(1)
	}
	fmt.Println(answer)
}
