package window_test

import (
	"context"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// lastTurns sends the newest Turns turns (the active one included, and
// the older turns a tool call glues to them). Its settings are its
// fields: the registry lists and sets the tagged ones by key.
type lastTurns struct {
	Turns int `setting:"turns" doc:"turns sent, the active one included"`
}

func (lastTurns) Name() string          { return "last" }
func (lastTurns) Baseline() bool        { return false }
func (s lastTurns) Start() window.State { return lastState{max(s.Turns, 1)} }

type lastState struct{ n int }

func (s lastState) Select(h *window.History) (window.Selection, error) {
	_, reset := h.Reset() // the turn holding the harness's summary, if any
	j := max(h.ActiveTurn()-s.n+1, reset)
	for j > reset && !h.ValidStart(j) {
		j-- // a tool call and its result stay together
	}
	return window.Selection{Spans: []window.Span{{Lo: h.RetainedStart(j), Hi: h.Len()}}}, nil
}

func (lastState) Observe(int) {}

// Registered once, before any replay: "last" then parses as
// "last:turns=2", and harpe replay --strategy would take it too.
func init() {
	window.Register("last",
		func(window.Options) lastTurns { return lastTurns{Turns: 1} }, // the defaults
		func(s lastTurns, _ window.Options) (window.Strategy, error) { return s, nil })
}

// A strategy of one's own registered by name with a typed setting, listed
// by Settings and replayed from its spec next to full: three turns of a
// question and a reply, so under last:turns=2 the third call sends the
// second and third turns (transcript indices 2–4), full all five.
func ExampleRegister() {
	settings, _ := window.Settings("last")
	for _, s := range settings {
		fmt.Printf("%s (%s, default %s): %s\n", s.Key, s.Kind, s.Default, s.Doc)
	}
	t := &transcript.Transcript{Format: "harpe", Turns: 3}
	for i, text := range []string{"q1", "a1", "q2", "a2", "q3", "a3"} {
		role := transcript.RoleUser
		if i%2 == 1 {
			role = transcript.RoleAssistant
		}
		t.Messages = append(t.Messages, transcript.Message{Index: i, Role: role, Text: text, Turn: i/2 + 1})
	}
	opts := window.ReplayOptions{Options: window.DefaultOptions(), Indices: true}
	strategies, err := window.ParseAll([]string{"full", "last:turns=2"}, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := window.Replay(context.Background(), t, strategies, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res {
		fmt.Print(r.Strategy, ":")
		for _, c := range r.Calls {
			fmt.Print(" ", c.Messages)
		}
		fmt.Println()
	}
	_, err = window.Parse("last:turn=2", window.Options{})
	fmt.Println(err)
	// Output:
	// turns (int, default 1): turns sent, the active one included
	// full: [0] [0 1 2] [0 1 2 3 4]
	// last:turns=2: [0] [0 1 2] [2 3 4]
	// last: unknown setting "turn"; valid: turns
}
