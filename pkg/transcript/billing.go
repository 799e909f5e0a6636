package transcript

import (
	"context"
	"io"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// Framing costs used by [MessageTokens] and [BilledTokens]. They follow
// OpenAI's documented chat overhead (3 tokens a message, 1 more when the
// message has a name, 3 to prime the reply); tool calls and images have no
// published figure, so harpe fixes one.
const (
	// TokensPerMessage frames every message (role markers, separators).
	TokensPerMessage = 3
	// TokensPerName is added when a message carries a name.
	TokensPerName = 1
	// TokensPerToolCall frames each tool call inside a message.
	TokensPerToolCall = 3
	// ReplyPriming is added once per request for the reply's header.
	ReplyPriming = 3
	// ImageTokens is the fixed cost of one image: what OpenAI bills for a
	// 1024×1024 image at high detail (4 tiles × 170 + 85).
	ImageTokens = 765
)

// MessageTokens is what one message costs in a chat request counted with
// c: the framing, the role, the name, the text, each tool call's name and
// arguments with its framing, and the images at [ImageTokens] each. Tool
// call ids are not counted.
func MessageTokens(m *Message, c tokenize.Counter) int {
	n := TokensPerMessage + countText(c, string(m.Role)) + countText(c, m.Text)
	if m.Name != "" {
		n += TokensPerName + countText(c, m.Name)
	}
	for _, tc := range m.ToolCalls {
		n += TokensPerToolCall + countText(c, tc.Name) + countText(c, tc.Arguments)
	}
	return n + m.Images*ImageTokens
}

// countText is c's count of s, one of the texts of a message: with a
// context that is never done a [tokenize.Counter] returns no error.
func countText(c tokenize.Counter, s string) int {
	n, _ := c.Count(context.Background(), s)
	return n
}

// BilledTokens counts the transcript as one chat request would bill it:
// [MessageTokens] for every message the context keeps (aborted turns are
// left out) plus [ReplyPriming], plus the tool definitions the request
// carried ([ToolDefTokens]). A transcript with no such message costs only
// its tool definitions.
func BilledTokens(t *Transcript, c tokenize.Counter) int {
	n := 0
	kept := false
	for i := range t.Messages {
		m := &t.Messages[i]
		if m.Aborted {
			continue
		}
		n += MessageTokens(m, c)
		kept = true
	}
	tools := ToolDefTokens(t.Tools, c)
	if !kept {
		return tools
	}
	return n + ReplyPriming + tools
}

// CountBilled reads the transcripts in r (see [Read]) and returns what
// they cost as chat requests, each conversation its own request:
// [BilledTokens] summed over them. It streams through [Scan], so a JSONL
// transcript of any size is counted in about one turn's memory. A total
// past the largest int is an [*Error] naming the line of the message
// that took it there, wrapping an [*engine.TokenOverflowError]. It stops
// once ctx is done (see [Scan]) and returns ctx's error.
func CountBilled(ctx context.Context, r io.Reader, name string, format Format, c tokenize.Counter) (int, error) {
	n, _, err := CountBilledTranscripts(ctx, r, name, format, c)
	return n, err
}

// CountBilledTranscripts is [CountBilled] that also returns the
// transcripts read that have warnings (as [Scan] hands them on, without
// messages; see [HistoryCount.Transcripts]).
func CountBilledTranscripts(ctx context.Context, r io.Reader, name string, format Format, c tokenize.Counter) (int, []*Transcript, error) {
	h, err := CountHistory(ctx, r, name, format, c)
	return h.Tokens, h.Transcripts, err
}
