package dates

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// chatText builds about n bytes of chat-like English, from a fixed seed:
// 24 sentences drawn at random, 8 of which hold a phrase that resolves.
func chatText(n int) string {
	sentences := []string{
		"I went to the farmers market yesterday and bought some tomatoes.",
		"That sounds lovely! What did you cook with them?",
		"We made a pasta sauce, the same one my grandmother taught me three weeks ago.",
		"How is the new job going after the first month?",
		"It's fine, though last week was busy with the quarterly review.",
		"Did you see the game last weekend?",
		"No, I was visiting my sister, who moved to Denver two years ago.",
		"I'm thinking about adopting a dog, maybe a beagle or a terrier.",
		"Let's meet next Friday at the usual coffee place.",
		"The concert tonight starts at eight, so we should leave early.",
		"Honestly the last few days have been exhausting.",
		"I finally finished the book you recommended a couple of months ago.",
		"The recipe calls for two cups of flour and a pinch of salt.",
		"My manager wants the slides by the end of the sprint.",
		"Could you suggest a few exercises for lower back pain?",
		"Sure: try cat-cow stretches, bird dogs and gentle bridges, ten of each.",
		"I'm planning a trip to Lisbon and want to avoid the tourist traps.",
		"The tram up to the castle is crowded, so walk if you can.",
		"What's a good name for a grey kitten with white paws?",
		"How about Mittens, Ash, or Pebble?",
		"I keep forgetting to water the basil on the balcony.",
		"A self-watering pot or a phone reminder could help with that.",
		"We are comparing two mortgage offers with different fixed terms.",
		"The shorter term costs more each month but less in total interest.",
	}
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(sentences[r.IntN(len(sentences))])
		if r.IntN(4) == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// BenchmarkAnnotate10MB annotates 10 MB of chat text.
func BenchmarkAnnotate10MB(b *testing.B) {
	text := chatText(10 << 20)
	on := Date{2023, 5, 20}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Annotate(context.Background(), text, on)
	}
}

func BenchmarkParseAnchor(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ParseAnchor("1:56 pm on 8 May, 2023")
	}
}

// TestAnnotateAllocations checks that annotating allocates nothing per
// phrase (the guards read words without allocating): ten times the text,
// with ten times the phrases, costs only a few more allocations (the
// span list and the output growing).
func TestAnnotateAllocations(t *testing.T) {
	on := Date{2023, 5, 20}
	small, large := chatText(50_000), chatText(500_000)
	a := testing.AllocsPerRun(3, func() { Annotate(context.Background(), small, on) })
	b := testing.AllocsPerRun(3, func() { Annotate(context.Background(), large, on) })
	if b-a > 10 {
		t.Errorf("%.0f allocations for 50 KB, %.0f for 500 KB: something allocates per phrase", a, b)
	}
}
