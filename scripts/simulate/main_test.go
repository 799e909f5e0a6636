package main

import "testing"

// TestSimulateNeverOverBudget runs a shorter session: no call may go over
// the budget, and the budget must save something.
func TestSimulateNeverOverBudget(t *testing.T) {
	for _, budget := range []int{300, 1200, 4000} {
		r, err := Run(2000, budget, 40, 7, "")
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

// TestSimulateKnapsackKeepsMoreUtility: on the same session the exact
// knapsack never keeps less utility than the greedy default, and both stay
// within the budget.
func TestSimulateKnapsackKeepsMoreUtility(t *testing.T) {
	greedy, err := Run(300, 1200, 40, 7, "lowest_priority")
	if err != nil {
		t.Fatal(err)
	}
	knap, err := Run(300, 1200, 40, 7, "knapsack")
	if err != nil {
		t.Fatal(err)
	}
	if greedy.OverBudget != 0 || knap.OverBudget != 0 {
		t.Fatalf("over budget: greedy %d, knapsack %d", greedy.OverBudget, knap.OverBudget)
	}
	if knap.Utility < greedy.Utility {
		t.Errorf("knapsack kept %.3f utility, less than greedy's %.3f", knap.Utility, greedy.Utility)
	}
}
