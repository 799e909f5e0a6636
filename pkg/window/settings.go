package window

// Defaults of the windowed, sliding and summarizing strategies, as
// [DefaultOptions] sets them: what a nil setting of [WindowedSettings],
// [SlidingSettings] or [SummarizingSettings] takes.
const (
	DefaultWindowChars     = 160000
	DefaultHead            = 1
	DefaultHighWaterTokens = 120000
	DefaultLowWaterChars   = 160000
	DefaultSummaryMaxChars = 8000
)

// WindowedSettings are the settings of the windowed strategy that a spec
// does not write (windowed:chars=N wins over Chars).
type WindowedSettings struct {
	// Chars is the character budget: nil is [DefaultWindowChars]; 0
	// keeps only the active turn.
	Chars *int
}

// resolve returns the windowed strategy of s, its default filled in.
func (s WindowedSettings) resolve() windowedStrategy {
	return windowedStrategy{Chars: orDefault(s.Chars, DefaultWindowChars)}
}

// SlidingSettings are the settings of the sliding strategy that a spec
// does not write (sliding:head=N,chars=N win over them).
type SlidingSettings struct {
	// Head is the number of first turns always kept: nil is
	// [DefaultHead]; 0 keeps none.
	Head *int
	// Chars is the character budget of the newest turns: nil is
	// [DefaultWindowChars]; 0 keeps only the active turn (and the head).
	Chars *int
}

// resolve returns the sliding strategy of s, its defaults filled in.
func (s SlidingSettings) resolve() slidingStrategy {
	return slidingStrategy{Head: orDefault(s.Head, DefaultHead), Chars: orDefault(s.Chars, DefaultWindowChars)}
}

// SummarizingSettings are the settings of the summarizing strategy that
// a spec does not write (summarizing:high=N,low=N,max=N win over them).
type SummarizingSettings struct {
	// HighWaterTokens is the observed input-token count above which
	// summarizing compacts before the next call: nil is
	// [DefaultHighWaterTokens]; 0 compacts before every call that has
	// something to fold.
	HighWaterTokens *int
	// LowWaterChars is how many characters of recent whole turns (the
	// active turn included) are kept verbatim at a compaction: nil is
	// [DefaultLowWaterChars]; 0 keeps only the active turn.
	LowWaterChars *int
	// SummaryMaxChars bounds the rolling summary, a longer distillation
	// cut to it: nil is [DefaultSummaryMaxChars].
	SummaryMaxChars *int
	// Distill writes the new rolling summary; nil uses [Extractive].
	Distill Distiller
}

// resolve returns the summarizing strategy of s, its defaults filled in.
func (s SummarizingSettings) resolve() SummarizingStrategy {
	return SummarizingStrategy{
		HighWaterTokens: orDefault(s.HighWaterTokens, DefaultHighWaterTokens),
		LowWaterChars:   orDefault(s.LowWaterChars, DefaultLowWaterChars),
		SummaryMaxChars: orDefault(s.SummaryMaxChars, DefaultSummaryMaxChars),
		Distill:         s.Distill,
	}
}

// orDefault is *v, or d when v is nil.
func orDefault(v *int, d int) int {
	if v == nil {
		return d
	}
	return *v
}
