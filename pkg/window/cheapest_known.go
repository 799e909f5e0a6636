package window

import (
	"context"
	"slices"
)

// The plan against the schedules the replay knows. The programme of
// [session.solve] is exact only within its cache model, which counts on
// less of the cache than the provider keeps in some runs of clears (a
// lower bound on the read): a schedule outside the model's view can cost
// less. So the plan also prices exactly, as candidates, the schedules
// clear:auto and clear (with the plan's keep, excluded tools and inputs)
// realize on the session, and keeps the cheapest of all (the fewest
// calls over the limit first): cheapest never costs more than those two.

// recordEdit runs an edit and records, call by call, the results it
// cleared as plan steps.
type recordEdit struct {
	inner  edit
	steps  *[]PlanStep
	inputs bool
}

func (e recordEdit) Name() string { return e.inner.Name() }

func (e recordEdit) start() editState {
	return &recordState{inner: e.inner.start(), steps: e.steps, seen: map[int]bool{}, inputs: e.inputs}
}

type recordState struct {
	inner editState
	steps *[]PlanStep
	seen  map[int]bool // transcript indices of the results cleared so far
	// inputs: the edit clears the calls' arguments too.
	inputs bool
	// now, sizes: the results cleared at this call, and their tokens
	// before (with their calls' arguments where inputs are cleared).
	now, sizes []int
}

func (s *recordState) abort(n, start int) { s.inner.abort(n, start) }

func (s *recordState) apply(c *conversation, sel *Selection, tokens int) {
	s.now, s.sizes = s.now[:0], s.sizes[:0]
	c.onClear = func(p int) {
		_, t := c.sentSize(p)
		if cp, ok := c.h.callOf(p); ok && s.inputs && c.sent[cp] != sentCleared {
			_, ct := c.sentSize(cp)
			t += ct
		}
		s.now, s.sizes = append(s.now, p), append(s.sizes, t)
	}
	s.inner.apply(c, sel, tokens)
	c.onClear = nil
	st := PlanStep{Call: c.calls}
	for j, p := range s.now {
		idx := c.h.At(p).Message.Index
		if s.seen[idx] {
			continue
		}
		s.seen[idx] = true
		st.Cleared = append(st.Cleared, idx)
		after := tokensOf(c, p)
		if !s.inputs {
			_, after = c.sentSize(p)
		}
		st.FreedTokens += s.sizes[j] - after
	}
	if len(st.Cleared) > 0 {
		slices.Sort(st.Cleared)
		*s.steps = append(*s.steps, st)
	}
}

// knownPlan is a schedule clear:auto or clear realized, with what it
// cost in that run.
type knownPlan struct {
	steps []PlanStep
	usd   float64
	over  int
}

// knownSchedules returns the clear schedules clear:auto and clear
// realize on the session with the plan's settings (base: full with the
// plan's other edits), each with its cost. clear is left out where no
// call of full passes its trigger (it clears nothing), or where it keeps
// fewer results than the plan.
func (r *replayer) knownSchedules(ctx context.Context, edits []edit, cs cheapestStrategy, full []Call) ([]knownPlan, error) {
	auto := autoClearEdit{Keep: cs.Keep, ExcludeTools: cs.ExcludeTools, ClearInputs: cs.ClearInputs}
	cl := r.opts.Options.Clear.resolve()
	cl.ExcludeTools, cl.ClearInputs = cs.ExcludeTools, cs.ClearInputs
	known := []edit{auto}
	if cl.Keep >= cs.Keep && slices.ContainsFunc(full, func(c Call) bool { return max(c.Tokens, c.Counted) > cl.Trigger }) {
		known = append(known, cl)
	}
	var out []knownPlan
	for _, e := range known {
		var steps []PlanStep
		es := append(slices.Clone(edits), recordEdit{inner: e, steps: &steps, inputs: cs.ClearInputs})
		res, err := r.run(ctx, withEdits{Base: fullStrategy{}, Edits: es, Label: "known"}, full, false)
		if err != nil {
			return nil, err
		}
		if len(steps) > 0 {
			out = append(out, knownPlan{steps: steps, usd: res.Totals.usd, over: res.Totals.OverWindowCalls})
		}
	}
	return out, nil
}
