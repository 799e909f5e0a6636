package window

import (
	"context"
	"errors"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// CallView is one model call's window message by message, in the order the
// parts are sent (system part, rolling summary, conversation), as
// [ShowCall] returns it: what a person reads to see what the model got.
type CallView struct {
	// Strategy is the strategy's name as written.
	Strategy string `json:"strategy"`
	// Call is the call's report, parts included.
	Call Call `json:"call"`
	// Messages are the messages sent with how each was sent.
	Messages []SentMessage `json:"messages"`
	// Rendered is the window as the provider is sent it (package
	// provider writes it as a request body).
	Rendered Rendered `json:"-"`
}

// SentMessage is one message of a [CallView].
type SentMessage struct {
	// Index is the message's transcript index; -1 for the rolling
	// summary.
	Index int `json:"index"`
	// Role is the message's role ("system" for the summary).
	Role string `json:"role"`
	// Sent says how it was sent (whole, truncated, cleared, masked,
	// summary).
	Sent string `json:"sent"`
	// InSystem is set for the text that goes into the request's system
	// part (system messages before the first prompt, and the summary).
	InSystem bool `json:"in_system"`
	// Chars and Tokens are the size sent, as the replay measures it.
	Chars  int `json:"chars"`
	Tokens int `json:"tokens"`
	// Message is the message as sent: a placeholder, a cut text or
	// cleared arguments in place.
	Message transcript.Message `json:"-"`
}

// ShowCall replays t through s up to call n (1-based) and returns what
// that call sent: its report (parts included), the window as the
// provider is sent it, placeholders and summary in place
// ([CallView.Rendered]), and message by message. It is a
// an error wrapping [ErrCallRange] when t has fewer calls.
func ShowCall(ctx context.Context, t *transcript.Transcript, s Strategy, opts ReplayOptions, n int) (*CallView, error) {
	rs, err := resolve(s, opts.Options)
	if err != nil {
		return nil, err
	}
	r, c, err := renderCall(ctx, t, rs, opts, n)
	if err != nil {
		return nil, err
	}
	sent := make(map[int]transcript.Message, len(r.Messages))
	for _, m := range r.Messages {
		sent[m.Index] = m
	}
	v := &CallView{Strategy: rs.Name(), Call: c, Rendered: r, Messages: []SentMessage{}}
	for _, p := range c.Parts {
		if p.Sent == sentSummary {
			v.Messages = append(v.Messages, SentMessage{Index: -1, Role: string(transcript.RoleSystem), Sent: sentSummary,
				InSystem: true, Chars: p.Chars, Tokens: p.Tokens,
				Message: transcript.Message{Index: -1, Role: transcript.RoleSystem, Text: r.Summary}})
			continue
		}
		for i := p.From; i <= p.To; i++ {
			m, ok := sent[i]
			if !ok {
				// A system message of the system part: sent in System,
				// always whole.
				m = t.Messages[i]
			}
			e := measureEntry(&m, 0, opts.Counter)
			v.Messages = append(v.Messages, SentMessage{Index: i, Role: string(m.Role), Sent: p.Sent, InSystem: !ok,
				Chars: e.Chars, Tokens: e.Tokens, Message: m})
		}
	}
	return v, nil
}

// ErrCallRange is what [ShowCall] returns, wrapped with the call asked
// for and the calls there are, for a call number the transcript does not
// reach.
var ErrCallRange = errors.New("out of range")
