package transcript

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/harpe-dev/harpe/internal/checked"
)

func TestHistoryCountAdd(t *testing.T) {
	var h HistoryCount
	// 10 counted with nothing recorded, then 5 counted and 40 recorded:
	// 15 counted, 40 recorded.
	for _, c := range []HistoryCount{{Tokens: 10}, {Tokens: 5, Recorded: 40, HasRecorded: true}} {
		if err := h.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if h.Tokens != 15 || h.Recorded != 40 || !h.HasRecorded {
		t.Errorf("got %+v, want 15 counted, 40 recorded", h)
	}
	err := h.Add(HistoryCount{Recorded: math.MaxInt, HasRecorded: true})
	var oe *checked.OverflowError
	if !errors.As(err, &oe) || oe.What != "the recorded prompts" {
		t.Fatalf("err %v, want an overflow of the recorded prompts", err)
	}
	if h.Tokens != 15 || h.Recorded != 40 {
		t.Errorf("h changed by a failed Add: %+v", h)
	}
}

// Two inputs of one history: a transcript that records its last prompt
// (1200 tokens) and one that does not.
func ExampleHistoryCount_Add() {
	var h HistoryCount
	h.Add(HistoryCount{Tokens: 900, Recorded: 1200, HasRecorded: true})
	h.Add(HistoryCount{Tokens: 300})
	fmt.Println(h.Tokens, h.Recorded, h.HasRecorded)
	// Output:
	// 1200 1200 true
}
