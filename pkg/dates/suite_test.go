package dates

import (
	"context"
	"testing"
)

// TestSuites runs the phrasings drawn from public date-parser test suites
// (testdata/dates/suites.py, which computes the expected dates) and checks
// three figures: wrong dates written (must be none), resolvable phrases
// resolved (at least 95%), and phrases that must be left alone left alone
// (at least 95%). Run with -v to see the figures.
func TestSuites(t *testing.T) {
	if len(suiteCases) < 300 {
		t.Fatalf("only %d suite cases", len(suiteCases))
	}
	var wrong, resolvable, resolved, alone, leftAlone, inside int
	for _, c := range suiteCases {
		on := mustDate(t, c.saidOn)
		got, _, _ := Annotate(context.Background(), c.in, on)
		if c.kind == "inside" {
			inside++
		}
		if got != c.in && got != c.want {
			wrong++
			t.Errorf("%s:%d: wrong date said on %s:\n got %q\nwant %q", c.file, c.line, c.saidOn, got, c.want)
		}
		if c.want != c.in {
			resolvable++
			if got == c.want {
				resolved++
			} else {
				t.Logf("%s:%d: not resolved: %q", c.file, c.line, c.in)
			}
		} else {
			alone++
			if got == c.in {
				leftAlone++
			}
		}
	}
	t.Logf("%d cases (%d phrases inside longer ones): %d wrong dates written; %d/%d resolvable resolved (%.1f%%); %d/%d ambiguous or vague left alone (%.1f%%)",
		len(suiteCases), inside, wrong, resolved, resolvable, pct(resolved, resolvable), leftAlone, alone, pct(leftAlone, alone))
	if alone < 80 || inside < 40 {
		t.Errorf("want at least 80 cases left alone and 40 inside longer phrases, have %d and %d", alone, inside)
	}
	if pct(resolved, resolvable) < 95 {
		t.Errorf("resolved %.1f%% of resolvable phrases, want at least 95%%", pct(resolved, resolvable))
	}
	if pct(leftAlone, alone) < 95 {
		t.Errorf("left alone %.1f%% of the phrases to leave, want at least 95%%", pct(leftAlone, alone))
	}
}

func pct(n, of int) float64 {
	if of == 0 {
		return 100
	}
	return 100 * float64(n) / float64(of)
}
