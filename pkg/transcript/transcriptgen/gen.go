// Package transcriptgen makes synthetic agent transcripts from a seed, for
// property tests, benchmarks and the replay benchmark script. The same seed
// and config always give the same transcript.
package transcriptgen

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Config shapes a generated transcript.
type Config struct {
	Seed  uint64
	Turns int
	// AbortEvery aborts about one turn in AbortEvery (0: none).
	AbortEvery int
	// Usage records a provider input-token count on every reply: the
	// estimate of everything before it plus Overhead.
	Usage    bool
	Overhead int
	// MaxToolChars bounds a tool result (default 3000).
	MaxToolChars int
	// NoTools makes every turn a prompt and one reply.
	NoTools bool
	// CompactEvery makes the harness compact its context in about one
	// turn in CompactEvery (0: never): a summary (a Meta user message,
	// listed in Compactions) at a random point of the turn, before its
	// prompt, between a tool call and its results, or after the reply.
	// Usage from there on counts the summary and what follows. Harpe's
	// event format cannot record a compaction, so [WriteEvents] refuses
	// such a transcript.
	CompactEvery int
	// AgentCalls, when above 0, makes an agent-loop session instead: one
	// or two human turns (AgentTurns, default 1) of AgentCalls model calls
	// each, every call but the last of a turn calling one tool (sometimes
	// two at once), with tool results from 200 bytes to MaxToolChars
	// (default 50,000 in this mode), sizes spread evenly on a log scale,
	// as coding agents read files, grep and run tests. Turns, AbortEvery,
	// NoTools and CompactEvery are ignored.
	AgentCalls int
	AgentTurns int
}

var words = strings.Fields(`the a of to and in is it that for on with as was at by
this from be or are an file test build error value function return line module
package config window budget token turn call result message summary replay
strategy context model user assistant tool reads writes checks runs fails passes
go json path main string number list map index order newest oldest first last`)

type gen struct {
	r   *rand.Rand
	cfg Config
	t   *transcript.Transcript
	// sum is the estimate of every retained message so far, before the
	// active turn; turnSum the active turn's retained part.
	sum, turnSum int
	// compactAt is the point of the active turn where the harness
	// compacts (-1: nowhere); point counts the points passed.
	compactAt, point int
}

// maybeCompact adds the harness's summary when the turn reaches its
// compaction point.
func (g *gen) maybeCompact(turn int) {
	if g.point++; g.point-1 != g.compactAt {
		return
	}
	g.sum, g.turnSum = 0, 0
	g.t.Compactions = append(g.t.Compactions, len(g.t.Messages))
	g.add(transcript.Message{Role: transcript.RoleUser, Meta: true, Turn: turn, Text: "Summary of the conversation so far: " + g.text(40, 400)})
}

func (g *gen) text(minChars, maxChars int) string {
	n := minChars + g.r.IntN(maxChars-minChars+1)
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			if g.r.IntN(12) == 0 {
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(words[g.r.IntN(len(words))])
	}
	b.WriteByte('.')
	return b.String()
}

func (g *gen) add(m transcript.Message) *transcript.Message {
	m.Index = len(g.t.Messages)
	g.t.Messages = append(g.t.Messages, m)
	n := tokenize.EstimateTokens(m.Text)
	for _, tc := range m.ToolCalls {
		n += tokenize.EstimateTokens(tc.Name) + tokenize.EstimateTokens(tc.Arguments)
	}
	g.turnSum += n
	return &g.t.Messages[m.Index]
}

func (g *gen) reply(m transcript.Message) {
	if g.cfg.Usage {
		v := g.sum + g.turnSum + g.cfg.Overhead
		m.InputTokens = &v
	}
	g.add(m)
}

// Generate returns a transcript of cfg.Turns turns: a system prompt, then
// turns of a user prompt, zero to three rounds of tool calls with their
// results, and a final reply; aborted turns stop after the tool rounds.
// With cfg.AgentCalls it is an agent loop instead (see [Config]).
func Generate(cfg Config) *transcript.Transcript {
	if cfg.AgentCalls > 0 {
		return generateAgent(cfg)
	}
	if cfg.MaxToolChars <= 0 {
		cfg.MaxToolChars = 3000
	}
	g := &gen{r: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15)), cfg: cfg, t: &transcript.Transcript{Format: "harpe", Skipped: map[string]int{}}}
	g.add(transcript.Message{Role: transcript.RoleSystem, Text: g.text(200, 600)})
	g.sum, g.turnSum = g.turnSum, 0
	callID := 0
	for turn := 1; turn <= cfg.Turns; turn++ {
		aborted := cfg.AbortEvery > 0 && g.r.IntN(cfg.AbortEvery) == 0
		g.compactAt, g.point = -1, 0
		if cfg.CompactEvery > 0 && g.r.IntN(cfg.CompactEvery) == 0 {
			g.compactAt = g.r.IntN(8)
		}
		sumBefore := g.sum
		start := len(g.t.Messages)
		g.maybeCompact(turn)
		g.add(transcript.Message{Role: transcript.RoleUser, Text: g.text(20, 400), Turn: turn})
		g.maybeCompact(turn)
		rounds := g.r.IntN(4)
		if cfg.NoTools {
			rounds = 0
		}
		for range rounds {
			calls := 1 + g.r.IntN(2)
			m := transcript.Message{Role: transcript.RoleAssistant, Turn: turn}
			if g.r.IntN(2) == 0 {
				m.Text = g.text(10, 120)
			}
			for range calls {
				callID++
				m.ToolCalls = append(m.ToolCalls, transcript.ToolCall{
					ID:        fmt.Sprintf("call_%d", callID),
					Name:      []string{"read_file", "run_tests", "grep"}[g.r.IntN(3)],
					Arguments: fmt.Sprintf(`{"path":"pkg/f%d.go"}`, g.r.IntN(100)),
				})
			}
			g.reply(m)
			g.maybeCompact(turn)
			for k := range calls {
				g.add(transcript.Message{Role: transcript.RoleTool, Turn: turn, ToolCallID: fmt.Sprintf("call_%d", callID-calls+1+k), Text: g.text(50, cfg.MaxToolChars)})
			}
			g.maybeCompact(turn)
		}
		if !aborted {
			g.reply(transcript.Message{Role: transcript.RoleAssistant, Turn: turn, Text: g.text(50, 1500)})
			g.maybeCompact(turn)
			g.sum += g.turnSum
		} else {
			// The turn, and a compaction in it, are dropped.
			g.sum = sumBefore
			for i := start; i < len(g.t.Messages); i++ {
				g.t.Messages[i].Aborted = true
			}
		}
		g.turnSum = 0
		g.t.Turns++
	}
	return g.t
}

// agentTools are the tools an agent-loop session calls, with the weight of
// each and the argument it takes.
var agentTools = []struct {
	name, arg string
	weight    int
}{{"Read", "file_path", 5}, {"Grep", "pattern", 3}, {"Bash", "command", 3}, {"Edit", "file_path", 1}}

func generateAgent(cfg Config) *transcript.Transcript {
	if cfg.MaxToolChars <= 0 {
		cfg.MaxToolChars = 50000
	}
	turns := max(cfg.AgentTurns, 1)
	g := &gen{r: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15)), cfg: cfg, t: &transcript.Transcript{Format: "harpe", Skipped: map[string]int{}}}
	// Tool output is cut from one pool of words, so that a long session
	// is quick to make.
	pool := g.text(cfg.MaxToolChars, cfg.MaxToolChars)
	g.add(transcript.Message{Role: transcript.RoleSystem, Text: g.text(2000, 4000)})
	g.sum, g.turnSum = g.turnSum, 0
	weights := 0
	for _, t := range agentTools {
		weights += t.weight
	}
	callID := 0
	for turn := 1; turn <= turns; turn++ {
		g.add(transcript.Message{Role: transcript.RoleUser, Text: g.text(40, 600), Turn: turn})
		for range cfg.AgentCalls - 1 {
			m := transcript.Message{Role: transcript.RoleAssistant, Turn: turn}
			if g.r.IntN(3) == 0 {
				m.Text = g.text(20, 300)
			}
			calls := 1
			if g.r.IntN(8) == 0 {
				calls = 2
			}
			for range calls {
				callID++
				w := g.r.IntN(weights)
				k := 0
				for w >= agentTools[k].weight {
					w -= agentTools[k].weight
					k++
				}
				m.ToolCalls = append(m.ToolCalls, transcript.ToolCall{
					ID:        fmt.Sprintf("toolu_%04d", callID),
					Name:      agentTools[k].name,
					Arguments: fmt.Sprintf(`{"%s":"pkg/f%d.go"}`, agentTools[k].arg, g.r.IntN(200)),
				})
			}
			g.reply(m)
			for k := range calls {
				// Log-uniform from 200 bytes to MaxToolChars.
				lo, hi := 200.0, float64(max(cfg.MaxToolChars, 201))
				n := int(lo * math.Pow(hi/lo, g.r.Float64()))
				start := g.r.IntN(len(pool) - min(n, len(pool)) + 1)
				g.add(transcript.Message{Role: transcript.RoleTool, Turn: turn, ToolCallID: m.ToolCalls[k].ID, Text: pool[start : start+min(n, len(pool))]})
			}
		}
		g.reply(transcript.Message{Role: transcript.RoleAssistant, Turn: turn, Text: g.text(100, 1500)})
		g.sum += g.turnSum
		g.turnSum = 0
		g.t.Turns++
	}
	return g.t
}

// WriteEvents writes t in harpe's event format (SPEC §9): one event a
// line, a usage event after each reply that has one, an abort event after
// each aborted turn.
func WriteEvents(w io.Writer, t *transcript.Transcript) error {
	if len(t.Compactions) > 0 {
		return errors.New("harpe's event format cannot record harness compactions")
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	type call struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type event struct {
		Type        string `json:"type"`
		Content     string `json:"content"`
		ToolCalls   []call `json:"tool_calls,omitempty"`
		ToolCallID  string `json:"tool_call_id,omitempty"`
		InputTokens *int   `json:"input_tokens,omitempty"`
	}
	for i, m := range t.Messages {
		e := event{Type: string(m.Role), Content: m.Text, ToolCallID: m.ToolCallID}
		if m.Role == transcript.RoleTool {
			e.Type = "tool_result"
		}
		for _, tc := range m.ToolCalls {
			e.ToolCalls = append(e.ToolCalls, call{tc.ID, tc.Name, tc.Arguments})
		}
		if err := enc.Encode(e); err != nil {
			return err
		}
		if m.InputTokens != nil {
			fmt.Fprintf(bw, "{\"type\":\"usage\",\"input_tokens\":%d}\n", *m.InputTokens)
		}
		if m.Aborted && (i+1 == len(t.Messages) || t.Messages[i+1].Turn != m.Turn) {
			bw.WriteString("{\"type\":\"abort\"}\n")
		}
	}
	return bw.Flush()
}
