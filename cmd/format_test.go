package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatRule: every report is a table on a terminal and JSON when
// standard output is not one or -o names a file; --format wins either
// way; count writes its wc-like line in both cases.
func TestFormatRule(t *testing.T) {
	items := "../testdata/items/agent.jsonl"
	session := "../testdata/replay/worked.jsonl"
	out := filepath.Join(t.TempDir(), "report")
	for _, tc := range []struct {
		name     string
		args     []string
		terminal bool
		want     string // how stdout starts ("" with -o: the file)
	}{
		{"transcript on a terminal", []string{"transcript", session}, true, "start (UTC)"},
		{"transcript piped", []string{"transcript", session}, false, "{"},
		{"transcript --format json on a terminal", []string{"transcript", "--format", "json", session}, true, "{"},
		{"transcript --format table piped", []string{"transcript", "--format", "table", session}, false, "start (UTC)"},
		{"replay on a terminal", []string{"replay", session}, true, "harpe transcript"},
		{"replay piped", []string{"replay", session}, false, "{"},
		{"replay -o FILE on a terminal", []string{"replay", "-o", out, session}, true, ""},
		{"models on a terminal", []string{"models", "gpt-4o"}, true, "+---"},
		{"models piped", []string{"models", "gpt-4o"}, false, "{"},
		{"synthesize on a terminal", []string{"synthesize", "--budget", "100", items}, true, "+---"},
		{"synthesize piped", []string{"synthesize", "--budget", "100", items}, false, "{"},
		{"fit on a terminal", []string{"fit", "--threshold", "100000", items}, true, "+---"},
		{"fit piped", []string{"fit", "--threshold", "100000", items}, false, "{"},
		{"conflicts on a terminal", []string{"conflicts", items}, true, "+---"},
		{"conflicts piped", []string{"conflicts", items}, false, "{"},
		{"count on a terminal", []string{"count", items}, true, ""},
		{"count piped", []string{"count", items}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(context.Background(), tc.args, IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr, OutIsTerminal: tc.terminal},
				func(string) (string, bool) { return "", false })
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			got := stdout.String()
			if tc.args[0] == "count" {
				// wc-like either way: "N FILE".
				if !strings.HasSuffix(got, " "+items+"\n") {
					t.Errorf("count wrote %q", got)
				}
				return
			}
			if tc.want == "" {
				if got != "" {
					t.Errorf("stdout %q, want nothing (the report went to -o)", got)
				}
				b, err := readFile(out)
				if err != nil || !strings.HasPrefix(b, "{") {
					t.Errorf("-o FILE holds %.40q (%v), want JSON", b, err)
				}
				return
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("stdout starts %.60q, want %q", got, tc.want)
			}
		})
	}
}

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}
