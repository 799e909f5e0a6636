package window

// Defaults of the windowed, sliding and summarizing strategies, as
// [DefaultOptions] sets them: what a nil setting of [WindowedSettings],
// [SlidingSettings] or [SummarizingSettings] takes. [Settings] lists
// them (the CLI's flags take their defaults from it).
const (
	defaultWindowChars     = 160000
	defaultHead            = 1
	defaultHighWaterTokens = 120000
	defaultLowWaterChars   = 160000
	defaultSummaryMaxChars = 8000
)

// WindowedSettings are the settings of the windowed strategy that a spec
// does not write (windowed:chars=N wins over Chars).
type WindowedSettings struct {
	// Chars is the character budget: nil is 160000 (the default
	// [Settings] lists); 0 keeps only the active turn.
	Chars *int
}

// resolve returns the windowed strategy of s, its default filled in.
func (s WindowedSettings) resolve() windowedStrategy {
	return windowedStrategy{Chars: orDefault(s.Chars, defaultWindowChars)}
}

// SlidingSettings are the settings of the sliding strategy that a spec
// does not write (sliding:head=N,chars=N win over them).
type SlidingSettings struct {
	// Head is the number of first turns always kept: nil is 1; 0 keeps
	// none.
	Head *int
	// Chars is the character budget of the newest turns: nil is
	// 160000; 0 keeps only the active turn (and the head).
	Chars *int
}

// resolve returns the sliding strategy of s, its defaults filled in.
func (s SlidingSettings) resolve() slidingStrategy {
	return slidingStrategy{Head: orDefault(s.Head, defaultHead), Chars: orDefault(s.Chars, defaultWindowChars)}
}

// SummarizingSettings are the settings of the summarizing strategy that
// a spec does not write (summarizing:high=N,low=N,max=N win over them).
type SummarizingSettings struct {
	// HighWaterTokens is the observed input-token count above which
	// summarizing compacts before the next call: nil is 120000; 0
	// compacts before every call that has something to fold.
	HighWaterTokens *int
	// LowWaterChars is how many characters of recent whole turns (the
	// active turn included) are kept verbatim at a compaction: nil is
	// 160000; 0 keeps only the active turn.
	LowWaterChars *int
	// SummaryMaxChars bounds the rolling summary, a longer distillation
	// cut to it: nil is 8000.
	SummaryMaxChars *int
	// Distill writes the new rolling summary; nil uses [Extractive].
	Distill Distiller
}

// resolve returns the summarizing strategy of s, its defaults filled in.
func (s SummarizingSettings) resolve() summarizingStrategy {
	return summarizingStrategy{
		HighWaterTokens: orDefault(s.HighWaterTokens, defaultHighWaterTokens),
		LowWaterChars:   orDefault(s.LowWaterChars, defaultLowWaterChars),
		SummaryMaxChars: orDefault(s.SummaryMaxChars, defaultSummaryMaxChars),
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
