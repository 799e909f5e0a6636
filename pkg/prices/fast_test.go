package prices

import (
	"testing"
	"time"
)

// Fast mode: a "-fast" id that the standard model's rule would take is
// priced at the standard prices scaled by the fast listing's input price
// over the standard one (genai-prices 0.1.8: claude-opus-4.8-fast $10
// against $5; anthropic/claude-opus-4.6-fast $30 against $5); without a
// listing it has no price. Figures from pkg/prices/data.json by hand.
func TestFindFast(t *testing.T) {
	db := Default().DB()
	for _, c := range []struct {
		id                                    string
		ok                                    bool
		model                                 string
		input, read, write5m, write1h, output float64
	}{
		{"claude-opus-4-8-fast", true, "claude-opus-4-8-fast", 10, 1, 12.5, 20, 50},
		{"claude-opus-4.8-fast", true, "claude-opus-4-8-fast", 10, 1, 12.5, 20, 50},
		{"Claude-Opus-4-6-Fast", true, "claude-opus-4-6-fast", 30, 3, 37.5, 60, 150},
		{"claude-opus-4-8", true, "claude-opus-4-8", 5, 0.5, 6.25, 10, 25},
		{"claude-sonnet-4-6-fast", false, "", 0, 0, 0, 0, 0},
	} {
		e, ok := db.Find(c.id)
		if ok != c.ok {
			t.Errorf("Find(%q): ok %v, want %v", c.id, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		p := e.At(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), 0)
		got := [5]float64{p.Input, p.CacheRead, p.CacheWrite5m, p.CacheWrite1h, p.Output}
		want := [5]float64{c.input, c.read, c.write5m, c.write1h, c.output}
		if e.Model != c.model || got != want {
			t.Errorf("Find(%q) = %s %v, want %s %v", c.id, e.Model, got, c.model, want)
		}
	}
	// An id whose own rule ends in -fast keeps its entry.
	if e, ok := db.Find("@cf/meta/llama-3.1-8b-instruct-fast"); !ok || e.Provider != "cloudflare" {
		t.Errorf("cloudflare fast model: %+v %v", e, ok)
	}
}
