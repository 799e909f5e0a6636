package conflicts_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/conflicts"
)

func ExampleFind() {
	texts := []string{
		"I live in Boston with my wife.",
		"My sister doesn't live in Boston.",
		"Do you still live in Boston?",
		"I no longer live in Boston.",
	}
	pairs, _, err := conflicts.Find(context.Background(), texts, conflicts.Options{})
	if err != nil {
		panic(err)
	}
	for _, p := range pairs {
		fmt.Printf("%d denies %d: cue %q, shared %v, score %.2f\n",
			p.Denial, p.Statement, p.Cue, p.Shared, p.Score)
	}
	// Output:
	// 3 denies 0: cue "no longer", shared [live boston], score 0.80
}

func ExampleNote() {
	denial := "I no longer live in Boston."
	note := conflicts.Note("I live in Boston with my wife.", "2023-05-01")
	fmt.Println(conflicts.Annotate(denial, []string{note}))
	// Annotating again changes nothing.
	fmt.Println(conflicts.Annotate(conflicts.Annotate(denial, []string{note}), []string{note}))
	// Output:
	// I no longer live in Boston. [note: conflicts with "I live in Boston with my wife." (2023-05-01)]
	// I no longer live in Boston. [note: conflicts with "I live in Boston with my wife." (2023-05-01)]
}

// Find stops once its context is done.
func ExampleFind_cancel() {
	ctx, cancel := context.WithCancel(context.Background())
	texts := []string{"I live in Boston.", "I no longer live in Boston."}
	pairs, st, err := conflicts.Find(ctx, texts, conflicts.Options{})
	fmt.Println(len(pairs), st.Clauses, err)
	cancel()
	pairs, _, err = conflicts.Find(ctx, texts, conflicts.Options{})
	fmt.Println(len(pairs), err)
	// Output:
	// 1 2 <nil>
	// 0 context canceled
}

// Each passes the pairs on one denial at a time, and counts those past
// MaxPairs instead of passing them on.
func ExampleEach() {
	texts := []string{
		"I live in Boston.",
		"I live in Boston with my wife.",
		"I no longer live in Boston.",
	}
	st, err := conflicts.Each(context.Background(), texts, conflicts.Options{MaxPairs: 1}, func(p conflicts.Pair) error {
		fmt.Printf("%d denies %d\n", p.Denial, p.Statement)
		return nil
	})
	fmt.Println(st.Found, st.Cut, err)
	// Output:
	// 2 denies 0
	// 2 1 <nil>
}

// NewReport names each pair's texts by id; Notes says which text bears
// which note: the denial, quoting the statement's sentence (trimmed of
// its full stop, as Pair has it) and its day.
func ExampleNotes() {
	day := time.Date(2023, 5, 1, 9, 0, 0, 0, time.UTC)
	texts := []conflicts.Text{
		{ID: "m1", Content: "I live in Boston.", At: &day},
		{ID: "m2", Content: "I no longer live in Boston."},
	}
	contents := []string{texts[0].Content, texts[1].Content}
	pairs, _, _ := conflicts.Find(context.Background(), contents, conflicts.Options{})
	rep := conflicts.NewReport(texts, pairs)
	fmt.Println(rep.Pairs[0].DenialID, "denies", rep.Pairs[0].StatementID)
	notes := conflicts.Notes(texts, pairs)
	fmt.Println(conflicts.Annotate(texts[1].Content, notes[1]))
	// Output:
	// m2 denies m1
	// I no longer live in Boston. [note: conflicts with "I live in Boston" (2023-05-01)]
}

// Texts one a line, written back with a note after the denial; every
// other line, its "\r" and the byte order mark included, as it came in.
func ExampleSource() {
	in := "\xef\xbb\xbfI live in Boston.\r\n\nI no longer live in Boston.\n"
	src := &conflicts.Source{KeepLines: true}
	if err := src.ReadLines(context.Background(), strings.NewReader(in), "notes.txt", ""); err != nil {
		panic(err)
	}
	contents := make([]string, len(src.Texts))
	for i, t := range src.Texts {
		contents[i] = t.Content
	}
	pairs, _, _ := conflicts.Find(context.Background(), contents, conflicts.Options{})
	rep := conflicts.NewReport(src.Texts, pairs)
	fmt.Println(len(src.Texts), "texts;", rep.Pairs[0].DenialID, "denies", rep.Pairs[0].StatementID)
	var out strings.Builder
	if err := src.WriteAnnotated(&out, pairs); err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", out.String())
	// Output:
	// 3 texts; L3 denies L1
	// "\ufeffI live in Boston.\r\n\nI no longer live in Boston. [note: conflicts with \"I live in Boston\"]\n"
}
