package main

import "testing"

// TestSimulateNeverOverBudget runs a shorter session: no call may go over
// the budget, and the budget must save something.
func TestSimulateNeverOverBudget(t *testing.T) {
	for _, budget := range []int{300, 1200, 4000} {
		r, err := Run(2000, budget, 40, 7)
		if err != nil {
			t.Fatal(err)
		}
		if r.OverBudget != 0 || r.Turns != 2000 {
			t.Errorf("budget %d: %d of %d turns over budget", budget, r.OverBudget, r.Turns)
		}
		if r.SentTok > r.InputTok || r.Saved() <= 0 {
			t.Errorf("budget %d: sent %d of %d", budget, r.SentTok, r.InputTok)
		}
	}
}
