package summary

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

func TestExtractive(t *testing.T) {
	msgs := []transcript.Message{
		{Role: "user", Turn: 1, Text: "Fix the build.  It fails on main."},
		{Role: "assistant", Turn: 1, ToolCalls: []transcript.ToolCall{{Name: "run_tests"}, {Name: "grep"}}},
		{Role: "tool", Turn: 1, ToolCallID: "a", Text: "FAIL"},
		{Role: "assistant", Turn: 1, Text: "Done:\nthe import was\tmissing. Rest is fine."},
	}
	got, err := Extractive(Request{Messages: msgs, MaxChars: 1000})
	if err != nil {
		t.Fatal(err)
	}
	want := extractiveHeader + "\n" +
		"turn 1 user: Fix the build.\n" +
		"turn 1 assistant: called run_tests, grep\n" +
		"turn 1 assistant: Done: the import was missing."
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Rolling: a second fold appends, and a bound drops the oldest lines.
	more := []transcript.Message{{Role: "user", Turn: 2, Text: "Now the docs"}}
	bound := len(extractiveHeader) + len("\nturn 1 assistant: Done: the import was missing.\nturn 2 user: Now the docs")
	got2, _ := Extractive(Request{Summary: got, Messages: more, MaxChars: bound})
	want2 := extractiveHeader + "\nturn 1 assistant: Done: the import was missing.\nturn 2 user: Now the docs"
	if got2 != want2 {
		t.Errorf("rolled:\n%s\nwant\n%s", got2, want2)
	}
}

func ExampleExtractive() {
	s, _ := Extractive(Request{
		Messages: []transcript.Message{
			{Role: "user", Turn: 1, Text: "Rename util to helpers. Then run the tests."},
			{Role: "assistant", Turn: 1, ToolCalls: []transcript.ToolCall{{Name: "grep"}}},
			{Role: "tool", Turn: 1, ToolCallID: "c1", Text: "cmd/main.go"},
			{Role: "assistant", Turn: 1, Text: "Renamed in cmd/main.go; tests pass."},
		},
		MaxChars: 1000,
	})
	fmt.Println(strings.TrimPrefix(s, extractiveHeader+"\n"))
	// Output:
	// turn 1 user: Rename util to helpers.
	// turn 1 assistant: called grep
	// turn 1 assistant: Renamed in cmd/main.go; tests pass.
}

func TestFold(t *testing.T) {
	msgs := []transcript.Message{{Role: "user", Turn: 1, Text: "Go."}}
	// A distiller's words longer than the bound are cut to it, in code
	// points: "ab€cdefgh" to 4 is "ab€c".
	got, err := Fold(func(Request) (string, error) { return "ab€cdefgh", nil }, Request{Messages: msgs, MaxChars: 4})
	if err != nil || got != "ab€c" {
		t.Errorf("cut: got %q, %v; want %q", got, err, "ab€c")
	}
	// nil is Extractive.
	got, _ = Fold(nil, Request{Messages: msgs, MaxChars: 1000})
	if want := extractiveHeader + "\nturn 1 user: Go."; got != want {
		t.Errorf("nil: got %q, want %q", got, want)
	}
	// A failure is an *Error wrapping the distiller's.
	cause := errors.New("exit status 3")
	_, err = Fold(func(Request) (string, error) { return "", cause }, Request{MaxChars: 10})
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, cause) || err.Error() != "distill: exit status 3" {
		t.Errorf("failure: got %v", err)
	}
}
