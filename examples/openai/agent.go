// Command openai is a tool-using agent loop on OpenAI's Chat Completions
// API (github.com/openai/openai-go) whose every request is chosen by
// harpe's live context (package live): the context renders the system
// part and the messages, this program turns them into the SDK's request,
// calls the API, reports the usage back (the cached part of the prompt
// apart), and adds the reply and the tool results.
//
//	OPENAI_API_KEY=… go run . --strategy clear:auto "Sum the numbers in the files"
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

	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// Tool runs one tool call on its JSON arguments and returns its output.
type Tool func(args json.RawMessage) (string, error)

// Agent is the loop: a client, the model, the live context, the tools.
type Agent struct {
	Client  openai.Client
	Model   string
	Context *live.Context
	Tools   map[string]Tool
	Schemas []openai.ChatCompletionToolUnionParam
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
		resp, err := a.Client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model: shared.ChatModel(a.Model), Tools: a.Schemas, Messages: messagesOf(s.System, s.Messages),
		})
		if err != nil {
			a.Context.Abort()
			return "", err
		}
		if len(resp.Choices) == 0 {
			a.Context.Abort()
			return "", fmt.Errorf("response %s has no choice", resp.ID)
		}
		u := resp.Usage
		cached := int(u.PromptTokensDetails.CachedTokens)
		a.Context.Observe(live.Usage{Input: int(u.PromptTokens) - cached, CacheRead: cached, Output: int(u.CompletionTokens)})
		m := resp.Choices[0].Message
		reply := transcript.Message{Role: transcript.RoleAssistant, Text: m.Content, Call: resp.ID}
		for _, tc := range m.ToolCalls {
			reply.ToolCalls = append(reply.ToolCalls, transcript.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
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
			a.Context.Add(transcript.Message{Role: transcript.RoleTool, ToolCallID: tc.ID, Text: out})
		}
	}
	a.Context.Abort()
	return "", fmt.Errorf("no answer after %d calls", a.MaxCalls)
}

// messagesOf turns the rendered system part and messages into the API's:
// a system message first, then one message each; an assistant message's
// tool calls as tool_calls (no content when it has no text), a tool
// result as a tool message answering its call. OpenAI caches the
// longest prefix it has seen by itself: no breakpoints to place.
func messagesOf(system string, msgs []transcript.Message) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	if system != "" {
		out = append(out, openai.SystemMessage(system))
	}
	for _, m := range msgs {
		switch {
		case m.ToolCallID != "":
			out = append(out, openai.ToolMessage(m.Text, m.ToolCallID))
		case m.Role == transcript.RoleAssistant:
			am := openai.ChatCompletionAssistantMessageParam{}
			if m.Text != "" || len(m.ToolCalls) == 0 {
				am.Content.OfString = openai.String(m.Text)
			}
			for _, tc := range m.ToolCalls {
				am.ToolCalls = append(am.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments}}})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &am})
		case m.Role == transcript.RoleSystem:
			out = append(out, openai.SystemMessage(m.Text))
		default:
			out = append(out, openai.UserMessage(m.Text))
		}
	}
	return out
}

// readFile is the example's one tool: it reads a file named by "path".
func readFile(args json.RawMessage) (string, error) {
	var in struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return "", err
	}
	b, err := os.ReadFile(in.Path)
	return string(b), err
}

// readFileSchema describes readFile to the model.
var readFileSchema = openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
	Name:        "read_file",
	Description: openai.String("Read a file and return its contents."),
	Parameters: shared.FunctionParameters{"type": "object",
		"properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []string{"path"}},
})

func main() {
	spec := flag.String("strategy", "clear:auto", "harpe strategy `SPEC` choosing each request's messages")
	model := flag.String("model", "gpt-5", "`MODEL` to call")
	flag.Parse()
	if flag.NArg() != 1 || os.Getenv("OPENAI_API_KEY") == "" {
		fmt.Fprintln(os.Stderr, "usage: OPENAI_API_KEY=… openai [--strategy SPEC] PROMPT")
		os.Exit(2)
	}
	c, err := live.NewSpec(*spec, live.Config{System: "You are a careful assistant with a read_file tool.", Model: *model})
	if err != nil {
		fmt.Fprintln(os.Stderr, "openai:", err)
		os.Exit(2)
	}
	a := &Agent{Client: openai.NewClient(option.WithAPIKey(os.Getenv("OPENAI_API_KEY"))), Model: *model, Context: c,
		Tools: map[string]Tool{"read_file": readFile}, Schemas: []openai.ChatCompletionToolUnionParam{readFileSchema}, MaxCalls: 20}
	answer, err := a.Run(context.Background(), flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "openai:", err)
		os.Exit(1)
	}
	fmt.Println(answer)
}
