package cmd

import (
	"context"
	"strings"
	"testing"
)

func TestConflictsHugeLine(t *testing.T) {
	// A 10 MB content line, read whole, denying the first item.
	big := strings.Repeat("We talked about the weather. ", 10<<20/29) + "I no longer live in Boston."
	in := `{"id":"s","content":"I live in Boston."}` + "\n" + `{"id":"big","content":"` + big + `"}` + "\n"
	var out, errOut strings.Builder
	code := Run(context.Background(), []string{"conflicts", "--format", "table"},
		IO{In: strings.NewReader(in), Out: &out, Err: &errOut}, func(string) (string, bool) { return "", false })
	if code != 0 || errOut.Len() != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	if !strings.Contains(out.String(), "| big    | s      | no longer | live boston ") {
		t.Errorf("table does not show the pair:\n%s", out.String())
	}
}
