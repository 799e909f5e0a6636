package cost

import (
	"fmt"
	"slices"
	"time"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/internal/usd"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
)

// OverheadID is the identity of the unseen overhead block [FullCalls]
// puts first in every window: the system prompt and tool definitions the
// transcript does not show.
const OverheadID = "overhead"

// RecordedCall is one call's usage as the transcript recorded it.
type RecordedCall struct {
	// Message is the index of the call's first message.
	Message int              `json:"message"`
	Model   string           `json:"model"`
	Time    time.Time        `json:"time"`
	Usage   transcript.Usage `json:"usage"`
	CostUSD float64          `json:"cost_usd"`
}

// RecordedTotals sums a transcript's recorded usage: the tokens by part
// and what they cost at the catalog's prices.
type RecordedTotals struct {
	Calls        int     `json:"calls"`
	Input        int     `json:"input"`
	CacheRead    int     `json:"cache_read"`
	CacheWrite   int     `json:"cache_write"`
	CacheWrite1h int     `json:"cache_write_1h"`
	Output       int     `json:"output"`
	CostUSD      float64 `json:"cost_usd"`
	// Unpriced lists, sorted, the models with no prices (priced at zero);
	// "" stands for calls whose model is not recorded.
	Unpriced []string `json:"unpriced"`
}

// Recorded returns each call's recorded usage in t, priced with cat (nil:
// the built-in presets) as the provider billed it ([usage.CallCost]: at
// the call's date, in its prompt's tier), and their totals: what the
// session really cost.
// Aborted messages count too: the provider billed those calls. Totals
// past the largest int are a [*checked.OverflowError] naming the
// message.
func Recorded(t *transcript.Transcript, cat *prices.Catalog) ([]RecordedCall, RecordedTotals, error) {
	if cat == nil {
		cat = prices.Default()
	}
	var calls []RecordedCall
	tot := RecordedTotals{Unpriced: []string{}}
	unpriced := map[string]bool{}
	for i := range t.Messages {
		m := &t.Messages[i]
		if m.Usage == nil {
			continue
		}
		usd, priced := usage.CallCost(cat.LookupCall(m.Model), m.Timestamp, *m.Usage)
		if !priced {
			unpriced[m.Model] = true
		}
		rc := RecordedCall{Message: m.Index, Model: m.Model, Time: m.Timestamp, Usage: *m.Usage, CostUSD: usd}
		calls = append(calls, rc)
		tot.Calls++
		var ok [5]bool
		tot.Input, ok[0] = checked.Add(tot.Input, m.Usage.Input)
		tot.CacheRead, ok[1] = checked.Add(tot.CacheRead, m.Usage.CacheRead)
		tot.CacheWrite, ok[2] = checked.Add(tot.CacheWrite, m.Usage.CacheWrite)
		tot.CacheWrite1h, ok[3] = checked.Add(tot.CacheWrite1h, m.Usage.CacheWrite1h)
		tot.Output, ok[4] = checked.Add(tot.Output, m.Usage.Output)
		if ok != [5]bool{true, true, true, true, true} {
			return nil, RecordedTotals{}, fmt.Errorf("message %d: %w", m.Index, &checked.OverflowError{What: "the recorded input, cache and output tokens"})
		}
		tot.CostUSD += rc.CostUSD
	}
	for name := range unpriced {
		tot.Unpriced = append(tot.Unpriced, name)
	}
	slices.Sort(tot.Unpriced)
	return calls, tot, nil
}

// FullCalls returns the calls t records, each with the window the harness
// sent under the `full` strategy. A call opens at each message that
// records the prompt size ([transcript.Message.InputTokens]); in a
// transcript that records none, at each run of assistant messages of one
// call. Its window is an overhead block (marked as a cache
// breakpoint) and then every message before the call's first message,
// from the latest harness compaction on, aborted messages left out. Each
// message is one block counted with c ([transcript.MessageTokens]); the
// overhead is the recorded prompt minus those blocks (0 when the call
// records no usage, or the last known overhead). The model is the call's
// recorded one, else model; the output is the recorded output tokens.
//
// It returns the calls and, for each, the recorded usage (nil where none).
func FullCalls(t *transcript.Transcript, c tokenize.Counter, model string) ([]Call, []*transcript.Usage) {
	var calls []Call
	var rec []*transcript.Usage
	var blocks []Block // the current window's message blocks
	start, ci := 0, 0
	overhead := 0
	recorded := false
	for i := range t.Messages {
		if t.Messages[i].InputTokens != nil {
			recorded = true
			break
		}
	}
	var prevRole transcript.Role
	prevCall := ""
	for i := range t.Messages {
		m := &t.Messages[i]
		for ci < len(t.Compactions) && t.Compactions[ci] <= i {
			start = t.Compactions[ci]
			ci++
			blocks = blocks[:0]
			for j := start; j < i; j++ {
				blocks = appendBlock(blocks, &t.Messages[j], c)
			}
		}
		var opens bool
		if recorded {
			opens = m.InputTokens != nil && !m.Aborted
		} else {
			opens = m.Role == transcript.RoleAssistant && !m.Aborted &&
				(prevRole != transcript.RoleAssistant || m.Call != prevCall)
		}
		prevRole, prevCall = m.Role, m.Call
		if opens {
			visible := 0
			for _, b := range blocks {
				visible += b.Tokens
			}
			if m.InputTokens != nil {
				overhead = max(0, *m.InputTokens-visible)
			}
			w := make([]Block, 0, len(blocks)+1)
			w = append(w, Block{ID: OverheadID, Tokens: overhead, Breakpoint: true})
			w = append(w, blocks...)
			call := Call{Model: model, Time: m.Timestamp, Blocks: w}
			if m.Model != "" {
				call.Model = m.Model
			}
			if m.Usage != nil {
				call.Output = m.Usage.Output
			}
			calls = append(calls, call)
			rec = append(rec, m.Usage)
		}
		blocks = appendBlock(blocks, m, c)
	}
	return calls, rec
}

func appendBlock(blocks []Block, m *transcript.Message, c tokenize.Counter) []Block {
	if m.Aborted {
		return blocks
	}
	parts := []string{string(m.Role), m.Name, m.Text, m.ToolCallID}
	for _, tc := range m.ToolCalls {
		parts = append(parts, tc.ID, tc.Name, tc.Arguments)
	}
	return append(blocks, Block{ID: ContentID(m.Index, "whole", parts...), Tokens: transcript.MessageTokens(m, c)})
}

// Agrees reports whether a modelled cache read is within 2% or 50 tokens
// (whichever is more) of the recorded one.
func Agrees(modelled, recorded int) bool {
	d := modelled - recorded
	if d < 0 {
		d = -d
	}
	return d <= 50 || float64(d) <= 0.02*float64(recorded)
}

// Agreement counts the calls whose modelled cache read [Agrees] with the
// recorded one, over the calls that record usage.
type Agreement struct {
	Calls int     `json:"calls"`
	Agree int     `json:"agree"`
	Share float64 `json:"share"`
}

// Compare checks the cache reads of rep against the recorded usage rec
// (as [FullCalls] returns it, nil entries skipped).
func Compare(rep *Report, rec []*transcript.Usage) Agreement {
	var a Agreement
	for i, u := range rec {
		if u == nil || i >= len(rep.Calls) {
			continue
		}
		a.Calls++
		if Agrees(rep.Calls[i].Cache.Read, u.CacheRead) {
			a.Agree++
		}
	}
	if a.Calls > 0 {
		a.Share = float64(a.Agree) / float64(a.Calls)
	}
	return a
}

// RoundUSD rounds a sum of dollar amounts to 1e-10 dollars, which removes
// the binary floating-point residue of adding token costs (0.24715105, not
// 0.24715104999999998) and keeps every digit a price can give: a price
// per million tokens with up to four decimals (the built-in ones have at
// most three) makes a token cost a whole number of 1e-10 dollars. Amounts
// of 10^5 dollars or more, where 1e-10 is near float64's resolution, are
// returned as they are.
func RoundUSD(x float64) float64 { return usd.Round(x) }

// Unpriced is what a cost leaves out: the calls of a model that has no
// price, and their tokens (input, cache reads and writes, output).
type Unpriced = usage.UnpricedCalls

// MergeUnpriced adds b's calls and tokens to a's, model by model, sorted
// by model name (sums saturate).
func MergeUnpriced(a, b []Unpriced) []Unpriced { return usage.MergeUnpriced(a, b) }
