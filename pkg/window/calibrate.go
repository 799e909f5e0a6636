package window

import (
	"context"
	"math"
	"math/bits"
)

// Calibration says how a replay sized the messages from the records
// ([ReplayOptions.CountedSizes] off, a transcript whose calls record their
// prompt): the fixed front and the counter's ratio to the provider's
// tokens.
//
// Between two calls of full that record their prompt (P₁, then P₂) full's
// window grows by the messages appended in between, so P₂ − P₁ is their
// exact billed size (more precisely: P₂ less the front and less the sizes
// already given to the messages still in the window, which also covers a
// harness compaction and an aborted turn). That gap is shared among the
// new messages in proportion to their counted size: message k of a gap G
// whose messages count c₁ … cₙ (C in all, Sₖ = c₁ + … + cₖ) gets
// ⌊G·Sₖ/C⌋ − ⌊G·Sₖ₋₁/C⌋ tokens, so the shares are whole and add up to G
// exactly (equal weights when C is 0). The first recorded call's prompt
// less its counted window is the front, one figure for the session; the
// messages of that first window, those after the last recorded call, and
// those of a gap that is negative (a record smaller than what is already
// sized) keep their counted size.
type Calibration struct {
	// Front is the first recorded prompt less its counted window: the
	// system prompt and tool definitions the transcript does not show.
	Front int `json:"front"`
	// Counted and Recorded are the counter's tokens and the records'
	// over the gaps shared; Ratio is Counted/Recorded (3 decimals; 0
	// when nothing was shared).
	Counted  int     `json:"counted"`
	Recorded int     `json:"recorded"`
	Ratio    float64 `json:"ratio"`
	// Gaps counts the gaps shared, Messages the messages sized by them.
	Gaps     int `json:"gaps"`
	Messages int `json:"messages"`
}

// calibrator keeps the books of the sizing pass over full's calls.
type calibrator struct {
	started bool
	size    []int // by transcript index: the size given, -1 for none
	// upTo is the number of history positions sized (or passed over);
	// cum[p] the sizes of positions below p.
	upTo int
	cum  []int
	cal  Calibration
}

// recordsPrompts reports whether any message records its prompt size.
func (r *replayer) recordsPrompts() bool {
	for i := range r.t.Messages {
		if r.t.Messages[i].InputTokens != nil {
			return true
		}
	}
	return false
}

// calibrate sizes the messages from the records (see [Calibration]),
// once, before any strategy runs: it replays full over the counted sizes
// and rewrites the measured entries.
func (r *replayer) calibrate(ctx context.Context) error {
	if r.opts.CountedSizes || r.calibration != nil || !r.recordsPrompts() {
		return nil
	}
	cb := &calibrator{size: make([]int, len(r.t.Messages)), cum: []int{0}}
	for i := range cb.size {
		cb.size[i] = -1
	}
	r.calib = cb
	cr, stream := r.cr, r.stream
	r.stream = false
	_, err := r.run(ctx, fullStrategy{}, nil, false)
	r.calib, r.stream, r.cr = nil, stream, cr
	if err != nil {
		return err
	}
	entries := r.measured()
	for i, n := range cb.size {
		if e := &entries[i]; n >= 0 && n != e.Tokens {
			e.counted, e.Tokens = e.Tokens, n
		}
	}
	c := cb.cal
	if c.Gaps == 0 {
		return nil // nothing was sized from the records
	}
	if c.Recorded > 0 {
		c.Ratio = math.Round(float64(c.Counted)/float64(c.Recorded)*1000) / 1000
	}
	r.calibration = &c
	return nil
}

// at sizes the messages full's window gained since the last recorded
// call, this one recording a prompt of prompt tokens.
func (cb *calibrator) at(h *History, prompt int) {
	n := h.Len()
	if cb.upTo > n { // an aborted turn dropped positions
		cb.upTo, cb.cum = n, cb.cum[:n+1]
	}
	// Positions that left the window (before a harness compaction)
	// without a recorded call keep their counted size.
	for cb.upTo < min(h.reset, n) {
		cb.give(h, cb.upTo, h.At(cb.upTo).Tokens)
	}
	lo := cb.upTo
	counted := 0
	for p := lo; p < n; p++ {
		counted += h.At(p).Tokens
	}
	if !cb.started {
		cb.started = true
		cb.cal.Front = max(0, prompt-h.sysToks-(cb.cum[lo]-cb.cum[min(h.reset, lo)])-counted)
		for p := lo; p < n; p++ {
			cb.give(h, p, h.At(p).Tokens)
		}
		return
	}
	gap := prompt - cb.cal.Front - h.sysToks - (cb.cum[lo] - cb.cum[min(h.reset, lo)])
	if lo == n {
		return
	}
	if gap < 0 {
		for p := lo; p < n; p++ {
			cb.give(h, p, h.At(p).Tokens)
		}
		return
	}
	cb.cal.Gaps++
	cb.cal.Messages += n - lo
	cb.cal.Counted += counted
	cb.cal.Recorded += gap
	s, prev := 0, 0
	for p := lo; p < n; p++ {
		w := h.At(p).Tokens
		if counted == 0 {
			w = 1
		}
		s += w
		total := counted
		if counted == 0 {
			total = n - lo
		}
		end := mulDiv(gap, s, total)
		cb.give(h, p, end-prev)
		prev = end
	}
}

// give sizes position p (the next one) as tokens.
func (cb *calibrator) give(h *History, p, tokens int) {
	cb.size[h.At(p).Message.Index] = tokens
	cb.cum = append(cb.cum[:p+1], cb.cum[p]+tokens)
	cb.upTo = p + 1
}

// mulDiv is ⌊a·b/c⌋ for 0 ≤ b ≤ c, c > 0, a ≥ 0, without overflow.
func mulDiv(a, b, c int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int(q)
}
