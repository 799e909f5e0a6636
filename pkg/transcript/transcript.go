// Package transcript reads saved conversations in the formats agent
// harnesses and chat APIs write and turns each into one message model.
//
// # Model
//
// A [Transcript] is one conversation: its [Message] values in order, each
// with a role, its text, the tool calls it makes or the call it answers, a
// timestamp and the provider usage recorded for it. A turn is a user message
// that opens one (a human prompt, by the format's rule) and everything up
// to the next; messages before the first are in turn 0 (the system part).
// A model call is each point where the model is asked; [Message.Call]
// groups the messages one response produced when the format writes it as
// several records, and [Message.InputTokens] sits on a call's first message.
//
// # Reading
//
// [Read] detects the format from the content (see [Detect] and [Formats])
// or takes the one named, and returns every conversation in the input.
// JSONL formats are read line by line; [Scan] hands each message on as
// soon as it is settled and keeps none, so a transcript of any size reads
// in about one turn's memory. Bad input is an [*Error] naming the input
// and the line and column (JSONL) or JSON path (documents).
//
// # Counting
//
// [BilledTokens] and [MessageTokens] count a transcript as a chat request
// bills it, with OpenAI's per-message framing and a fixed image cost;
// [CountBilled] does the same while streaming. What recorded sessions
// used and cost (listings, summaries, breakdowns) is package usage's.
package transcript

import "time"

// Role is who speaks a message. It is a string underneath, so JSON
// output spells it as before.
type Role string

// Roles of a message.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Transcript is one saved conversation.
type Transcript struct {
	// Format names the format it was read from ("harpe", "openai",
	// "anthropic", "claude-code", "codex", "gemini", "gemini-cli",
	// "copilot-cli", "opencode", "sharegpt", "swe-agent", "openhands",
	// "long-memory", "vcr", "har"); see [Formats].
	Format Format
	// ID names the conversation when the format has several per file
	// (ShareGPT, long-memory samples), else "".
	ID string
	// Messages in conversation order; Messages[i].Index == i.
	Messages []Message
	// Turns is the number of turns (user prompts that open a turn).
	Turns int
	// Skipped counts the records that were read but are not messages, by
	// kind ("progress", "file-history-snapshot", …), so nothing is lost
	// silently.
	Skipped map[string]int
	// BrokenLines counts the lines of a JSON Lines session log that were
	// not JSON and were skipped (each also in Skipped as
	// [SkippedBrokenLine], and named in Warnings); see [WithStrictLines].
	BrokenLines int
	// Unpaired lists tool calls with no result and results with no call.
	Unpaired []Unpaired
	// Compactions lists the message indices where the harness compacted its
	// own context: what the provider saw from there on is the message at
	// that index (the summary) plus what follows.
	Compactions []int
	// Unsent lists, in file order, the calls the file records that are
	// not part of this conversation: a subagent's run kept in a Claude
	// Code session file (sidechain records), or a response whose only
	// records are thinking blocks (saved mid-stream). The provider billed them, so
	// the recorded sums and the session's cost count them (package
	// usage), but no window holds them.
	Unsent []UnsentCall
	// Warnings are problems that did not stop the reading, each naming
	// the input and line: a half-written last line (a session still
	// being written) is skipped, and everything before it is read.
	Warnings []*Error
	// Tools are the tool definitions the conversation's request carried,
	// where the format records them (request bodies, HTTP recordings);
	// counted by [ToolDefTokens].
	Tools []ToolDef
}

// Message is one thing a context window keeps or drops: a system prompt, a
// user prompt, an assistant reply or tool call, or a tool result.
type Message struct {
	Index int
	Role  Role
	// Name is the speaker or tool name when the format records one.
	Name string
	// Text is the message's text: text blocks joined by "\n". Tool-call
	// arguments are in ToolCalls, not here; a tool result's output is here.
	Text string
	// Thinking is the reasoning recorded with an assistant message
	// (Anthropic thinking blocks), "" when none. It is not part of Text,
	// Chars or [MessageTokens]: providers drop earlier turns' thinking
	// from the prompt.
	Thinking string
	// ToolCalls are the calls an assistant message makes.
	ToolCalls []ToolCall
	// ToolCallID is, for a tool result, the id of the call it answers.
	ToolCallID string
	// Images counts image blocks, which are billed as a fixed cost.
	Images int
	// Timestamp is when the message was written; zero when not recorded.
	Timestamp time.Time
	// InputTokens is the provider-reported prompt size of the model call
	// that produced this message (cached parts included), set on the first
	// message of that call only; nil when not recorded.
	InputTokens *int
	// Usage is the provider's record of that call in its parts (uncached
	// input, cache read, cache write, output), set where InputTokens is and
	// only when the format records usage; its [Usage.Prompt] equals
	// *InputTokens.
	Usage *Usage
	// Model is the model that answered, on every message of a call whose
	// format records it; "" when not recorded.
	Model string
	// Call groups the messages one model response produced (Claude Code
	// writes one response as several records sharing message.id); "" when
	// every assistant message is its own call.
	Call string
	// Response names the provider's response the message's usage is
	// from, the same in every file that records it (Claude Code:
	// message.id and requestId, joined by a colon; a resumed session,
	// a subagent's copy or a checkpoint snapshot repeats them); set where
	// Usage is, "" when the format records no such id. A run's summary
	// counts each response once (usage.SessionSummaries).
	Response string
	// Turn is the 1-based turn the message belongs to; 0 for the system part
	// before the first user prompt.
	Turn int
	// Aborted marks messages of a turn the user aborted: they stay in the
	// transcript but are dropped from the context.
	Aborted bool
	// Meta marks messages that are part of the record but were not typed
	// by a person or model as conversation: injected context, a harness
	// compaction summary. They still count as context.
	Meta bool
}

// Usage is what a provider recorded for one model call, in the parts
// it bills separately. Providers that report one prompt total with the
// cached part inside it (OpenAI, Codex, Gemini) are split here as
// Input = total − CacheRead, so the parts never overlap.
type Usage struct {
	// Input is the prompt tokens neither read from nor written to a cache.
	Input int `json:"input"`
	// CacheRead is the prompt tokens read from the provider's cache.
	CacheRead int `json:"cache_read"`
	// CacheWrite is the prompt tokens written to the cache (Anthropic
	// bills them above the input price; OpenAI and Gemini write for free
	// and report 0).
	CacheWrite int `json:"cache_write"`
	// CacheWrite1h is the part of CacheWrite written with Anthropic's
	// 1-hour TTL, where the record splits it (cache_creation.
	// ephemeral_1h_input_tokens); the rest has the 5-minute TTL.
	CacheWrite1h int `json:"cache_write_1h,omitempty"`
	// Output is the tokens of the reply, reasoning or thinking included.
	Output int `json:"output"`
}

// Prompt is the whole prompt of the call: Input + CacheRead + CacheWrite.
func (u Usage) Prompt() int { return u.Input + u.CacheRead + u.CacheWrite }

// UnsentCall is one call in [Transcript.Unsent]: the model that answered,
// when (its first record's timestamp; zero when not recorded), and its
// recorded usage.
type UnsentCall struct {
	Model string
	Time  time.Time
	Usage Usage
	// Response is [Message.Response] of the call; "" when not recorded.
	Response string
}

// ToolCall is one call an assistant message makes.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // the arguments as the provider sent them (JSON text)
}

// Unpaired is a tool call without a result, or a result without a call.
type Unpaired struct {
	Message    int    // index of the message holding the call or result
	ToolCallID string // the call id
	Kind       string // "call" (no result) or "result" (no call)
}
