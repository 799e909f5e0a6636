package conflicts

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStemJoinsForms(t *testing.T) {
	// Forms of one word share a stem; the stems were worked out by hand
	// from the rule in stem's comment.
	tests := []struct {
		name  string
		forms []string
		want  string
	}{
		{"e-final verb", []string{"smoke", "smokes", "smoked", "smoking"}, "smok"},
		{"live", []string{"live", "lives", "lived", "living"}, "liv"},
		{"doubled consonant", []string{"run", "runs", "running", "ran"}, "run"},
		{"stop", []string{"stop", "stops", "stopped", "stopping"}, "stop"},
		{"ies plural", []string{"study", "studies", "studied"}, "study"},
		{"ss kept", []string{"pass", "passes", "passed", "passing"}, "pass"},
		{"irregular", []string{"go", "goes", "went", "gone"}, "go"},
		{"have", []string{"have", "has", "had", "having"}, "hav"},
		{"short words alone", []string{"bus"}, "bus"},
		{"ing too short to strip", []string{"thing"}, "thing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range tt.forms {
				if got := stem(f); got != tt.want {
					t.Errorf("stem(%q) = %q, want %q", f, got, tt.want)
				}
			}
		})
	}
}

func TestTokenizeContractions(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"don't", "I don't", []string{"i", "do", "n't"}},
		{"can't", "can't", []string{"can", "n't"}},
		{"won't", "won't", []string{"will", "n't"}},
		{"cannot", "cannot", []string{"can", "not"}},
		{"curly apostrophe", "isn’t", []string{"is", "n't"}},
		{"I've is have", "I've", []string{"i", "have"}},
		{"possessive", "Tom's boat", []string{"tom", "'s", "boat"}},
		{"decimal", "version 2.5.", []string{"version", "2.5", "."}},
		{"punctuation", "No, thanks!", []string{"no", ",", "thanks", "!"}},
		{"line break ends a sentence", "a\nb", []string{"a", ".", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, tok := range tokenize(tt.text) {
				got = append(got, tok.low)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("tokenize(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestFind(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		opts  Options
		want  []Pair
	}{
		{
			name:  "no longer",
			texts: []string{"I live in Boston.", "I no longer live in Boston."},
			want: []Pair{{Statement: 0, Denial: 1, StatementSentence: "I live in Boston", DenialSentence: "I no longer live in Boston",
				Cue: "no longer", Shared: []string{"live", "boston"}, Score: 1}},
		},
		{
			// Statement keys: live, boston, wife, 2, kid; denial: live,
			// boston. Score 2·2/(5+2) = 0.571.
			name:  "the denial says less",
			texts: []string{"I live in Boston with my wife and two kids.", "I don't live in Boston."},
			want: []Pair{{Statement: 0, Denial: 1, StatementSentence: "I live in Boston with my wife and two kids", DenialSentence: "I don't live in Boston",
				Cue: "don't", Shared: []string{"live", "boston"}, Score: 0.57}},
		},
		{
			name:  "min score drops it",
			texts: []string{"I live in Boston with my wife and two kids.", "I don't live in Boston."},
			opts:  Options{MinScore: 0.6},
		},
		{
			name:  "denial first in the input",
			texts: []string{"Thanks. I stopped smoking", "I smoke."},
			want: []Pair{{Statement: 1, Denial: 0, StatementSentence: "I smoke", DenialSentence: "I stopped smoking",
				Cue: "stopped", Shared: []string{"smoke"}, Score: 1}},
		},
		{
			name:  "antonym",
			texts: []string{"The door is open.", "The door is closed."},
			want: []Pair{{Statement: 0, Denial: 1, StatementSentence: "The door is open", DenialSentence: "The door is closed",
				Cue: "closed", Shared: []string{"door", "open"}, Score: 1}},
		},
		{
			name:  "within one text is not a pair",
			texts: []string{"I smoke. I don't smoke."},
		},
		{
			name:  "both negated",
			texts: []string{"The door is not open.", "The door is closed."},
		},
		{
			name:  "question",
			texts: []string{"The build is green.", "Isn't the build green?"},
		},
		{
			name:  "conditional",
			texts: []string{"We will go hiking.", "If it doesn't rain, we will go hiking."},
		},
		{
			name:  "one clause of a longer text",
			texts: []string{"I don't live in Boston, but I work there.", "I live in Boston."},
			want: []Pair{{Statement: 1, Denial: 0, StatementSentence: "I live in Boston", DenialSentence: "I don't live in Boston, but I work there",
				Cue: "don't", Shared: []string{"live", "boston"}, Score: 1}},
		},
		{
			name:  "several texts, ordered by denial then statement",
			texts: []string{"The API returns JSON.", "The API doesn't return JSON.", "The API returns JSON for errors.", "The API never returns JSON."},
			want: []Pair{
				{Statement: 0, Denial: 1, StatementSentence: "The API returns JSON", DenialSentence: "The API doesn't return JSON", Cue: "doesn't", Shared: []string{"api", "returns", "json"}, Score: 1},
				{Statement: 2, Denial: 1, StatementSentence: "The API returns JSON for errors", DenialSentence: "The API doesn't return JSON", Cue: "doesn't", Shared: []string{"api", "returns", "json"}, Score: 0.86},
				{Statement: 0, Denial: 3, StatementSentence: "The API returns JSON", DenialSentence: "The API never returns JSON", Cue: "never", Shared: []string{"api", "returns", "json"}, Score: 1},
				{Statement: 2, Denial: 3, StatementSentence: "The API returns JSON for errors", DenialSentence: "The API never returns JSON", Cue: "never", Shared: []string{"api", "returns", "json"}, Score: 0.86},
			},
		},
		{
			name:  "partial negation is no denial",
			texts: []string{"Uber is cheaper than a taxi.", "Uber isn't always cheaper.", "Uber is not necessarily cheaper."},
		},
		{
			name:  "deictic subjects point at different things",
			texts: []string{"It works on Linux.", "It doesn't work on Linux.", "This is passed to the model.", "This is not passed to the model."},
		},
		{
			name:  "asides in parentheses",
			texts: []string{"Messages go to the model (sent to the model).", "Routing state stays local (not sent to the model)."},
		},
		{
			name:  "an open parenthesis hides nothing",
			texts: []string{"I live in Boston.", "Sad news :( I no longer live in Boston."},
			want: []Pair{{Statement: 0, Denial: 1, StatementSentence: "I live in Boston", DenialSentence: "Sad news :( I no longer live in Boston",
				Cue: "no longer", Shared: []string{"live", "boston"}, Score: 1}},
		},
		{
			name:  "fragments opening with a participle",
			texts: []string{"Sent to the model.", "Not sent to the model."},
		},
		{
			name:  "empty input",
			texts: nil,
		},
		{
			name:  "empty and blank texts",
			texts: []string{"", "   ", "\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := find(tt.texts, tt.opts)
			if got == nil {
				t.Fatal("Find returned nil, want a slice (JSON [] not null)")
			}
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Find = %+v\nwant   %+v", got, tt.want)
			}
		})
	}
}

func TestNote(t *testing.T) {
	tests := []struct {
		name, statement, date, want string
	}{
		{"dated", "I live in Boston.", "2023-05-01", ` [note: conflicts with "I live in Boston." (2023-05-01)]`},
		{"undated", "I live in Boston.", "", ` [note: conflicts with "I live in Boston."]`},
		{"line breaks", "I live\nin  Boston.", "", ` [note: conflicts with "I live in Boston."]`},
		{"long", strings.Repeat("é", 130), "", ` [note: conflicts with "` + strings.Repeat("é", 119) + `…"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Note(tt.statement, tt.date); got != tt.want {
				t.Errorf("Note = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNotesAreNotRead(t *testing.T) {
	// Without masking, the note's quoted "I live in Boston" would be read
	// as a statement of text 0 that text 1 denies.
	annotated := "I don't live in Boston." + Note("I live in Boston.", "2023-05-01")
	texts := []string{annotated, "I no longer live in Boston."}
	if got := find(texts, Options{}); len(got) != 0 {
		t.Errorf("Find read the note: %+v", got)
	}
	// And the annotated denial is still found against its statement.
	texts = []string{"I live in Boston.", annotated}
	got := find(texts, Options{})
	if len(got) != 1 || got[0].DenialSentence != "I don't live in Boston" {
		t.Errorf("Find = %+v, want the denial found once", got)
	}
}

func TestMaskNotesKeepsOffsets(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"none", "plain text", "plain text"},
		{"undated", `a [note: conflicts with "x"] b`, "a " + blank(26) + " b"},
		{"dated", `a [note: conflicts with "x" (2023-05-01)] b`, "a " + blank(39) + " b"},
		{"quote inside", `a [note: conflicts with "say "hi" now" (d)]`, "a " + blank(41)},
		{"unclosed", `a [note: conflicts with "x`, `a [note: conflicts with "x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := maskNotes(tt.in)
			if got != tt.want || len(got) != len(tt.in) {
				t.Errorf("maskNotes(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzFind(f *testing.F) {
	f.Add("I live in Boston.", "I no longer live in Boston.")
	f.Add("The door is open.", "The door isn’t closed, is it?")
	f.Add("Don't you? [note: conflicts with \"x\" (", "\xff\xfe not")
	f.Fuzz(func(t *testing.T, a, b string) {
		texts := []string{a, b}
		for _, p := range find(texts, Options{}) {
			if p.Statement == p.Denial || p.Statement < 0 || p.Statement > 1 || p.Denial < 0 || p.Denial > 1 {
				t.Fatalf("bad indices %+v", p)
			}
			if p.Score < DefaultMinScore || p.Score > 1 || p.Cue == "" || len(p.Shared) == 0 {
				t.Fatalf("bad pair %+v", p)
			}
			if !strings.Contains(maskNotes(texts[p.Denial]), p.DenialSentence) {
				t.Fatalf("denial sentence %q not in %q", p.DenialSentence, texts[p.Denial])
			}
		}
		n := Note(a, "2023-05-01")
		once := Annotate(b, []string{n})
		if Annotate(once, []string{n}) != once {
			t.Fatalf("annotating twice changed the text")
		}
		if utf8.ValidString(a) && !utf8.ValidString(n) {
			t.Fatalf("note of valid text is not valid UTF-8: %q", n)
		}
		if m := maskNotes(once); len(m) != len(once) {
			t.Fatalf("maskNotes changed the length")
		}
	})
}

func blank(n int) string { return strings.Repeat(" ", n) }

func TestHugeText(t *testing.T) {
	// 8 MB of chat in one text, with the denial at its very end (docs/
	// conflicts.md measures a 50 MB item through the command).
	var b strings.Builder
	for b.Len() < 8<<20 {
		b.WriteString("We talked about the weather and the game last night. ")
	}
	b.WriteString("I no longer live in Boston")
	huge := b.String()
	got := find([]string{"I live in Boston.", huge}, Options{})
	if len(got) != 1 || got[0].Denial != 1 || got[0].DenialSentence != "I no longer live in Boston" {
		t.Fatalf("Find = %+v, want the denial at the end of the huge text", got)
	}
}

func TestInvalidUTF8(t *testing.T) {
	// Invalid bytes are not letters: they separate words and match nothing.
	got := find([]string{"I live in \xffBoston.", "I don't live in Boston\xfe."}, Options{})
	if len(got) != 1 || strings.Join(got[0].Shared, " ") != "live boston" {
		t.Fatalf("Find = %+v, want one pair sharing live, boston", got)
	}
}

// find is Find without a context, for the tables.
func find(texts []string, opts Options) []Pair {
	pairs, _ := findStats(texts, opts)
	return pairs
}

// findStats is Find without a context, with its stats.
func findStats(texts []string, opts Options) ([]Pair, Stats) {
	pairs, st, err := Find(context.Background(), texts, opts)
	if err != nil {
		panic(err)
	}
	return pairs, st
}
