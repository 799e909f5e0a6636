package transcript

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sample is what a sample file in testdata/transcripts holds, worked out
// by reading the file by hand (or with jq), not from the reader.
type sample struct {
	file   string
	format string
	// roles has one letter a message: s system, u user, a assistant, t tool.
	roles string
	// turns has each message's turn, space separated.
	turns    string
	nturns   int
	input    map[int]int // message index → input tokens
	unpaired string      // "c<i>:<id>" calls, "r<i>:<id>" results, space separated
	skipped  map[string]int
	aborted  []int
	meta     []int
	compact  []int
	calls    int // distinct Call groups, 0 when the format does not group
}

var samples = []sample{
	{file: "harpe/basic.jsonl", format: "harpe",
		roles: "suatatauatta", turns: "0 1 1 1 1 1 1 2 2 2 2 2", nturns: 2,
		input: map[int]int{2: 1210, 4: 1388, 6: 1502, 8: 1590, 11: 1655}},
	{file: "harpe/aborted.jsonl", format: "harpe",
		roles: "suatua", turns: "0 1 1 1 2 2", nturns: 2,
		input: map[int]int{2: 300, 5: 420}, aborted: []int{1, 2, 3}},
	{file: "harpe/orphan.jsonl", format: "harpe",
		roles: "uta", turns: "1 1 1", nturns: 1,
		input: map[int]int{2: 95}, unpaired: "r1:call_9 c2:call_1"},
	{file: "harpe/system-only.jsonl", format: "harpe", roles: "ss", turns: "0 0"},
	{file: "harpe/empty.jsonl", format: "harpe"},
}

var roleLetter = map[string]byte{RoleSystem: 's', RoleUser: 'u', RoleAssistant: 'a', RoleTool: 't'}

// TestSamples reads every sample with format detection and checks the
// messages, turns, pairs and counts against the table above.
func TestSamples(t *testing.T) {
	for _, s := range samples {
		t.Run(s.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("..", "..", "testdata", "transcripts", s.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ts, err := Read(f, s.file, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(ts) != 1 {
				t.Fatalf("%d transcripts, want 1", len(ts))
			}
			checkSample(t, ts[0], s)
		})
	}
}

func checkSample(t *testing.T, tr *Transcript, s sample) {
	t.Helper()
	if tr.Format != s.format {
		t.Errorf("format %q, want %q", tr.Format, s.format)
	}
	var roles []byte
	var turns []string
	input := map[int]int{}
	var aborted, meta []int
	calls := map[string]bool{}
	for i, m := range tr.Messages {
		if m.Index != i {
			t.Errorf("message %d has Index %d", i, m.Index)
		}
		roles = append(roles, roleLetter[m.Role])
		turns = append(turns, fmt.Sprint(m.Turn))
		if m.InputTokens != nil {
			input[i] = *m.InputTokens
		}
		if m.Aborted {
			aborted = append(aborted, i)
		}
		if m.Meta {
			meta = append(meta, i)
		}
		if m.Call != "" {
			calls[m.Call] = true
		}
	}
	if string(roles) != s.roles {
		t.Errorf("roles\n got %s\nwant %s", roles, s.roles)
	}
	if got := strings.Join(turns, " "); got != s.turns {
		t.Errorf("turns\n got %s\nwant %s", got, s.turns)
	}
	if tr.Turns != s.nturns {
		t.Errorf("Turns = %d, want %d", tr.Turns, s.nturns)
	}
	if s.input == nil {
		s.input = map[int]int{}
	}
	if !maps.Equal(input, s.input) {
		t.Errorf("input tokens\n got %v\nwant %v", input, s.input)
	}
	var un []string
	for _, u := range tr.Unpaired {
		un = append(un, fmt.Sprintf("%c%d:%s", u.Kind[0], u.Message, u.ToolCallID))
	}
	if got := strings.Join(un, " "); got != s.unpaired {
		t.Errorf("unpaired\n got %s\nwant %s", got, s.unpaired)
	}
	if s.skipped == nil {
		s.skipped = map[string]int{}
	}
	if !maps.Equal(tr.Skipped, s.skipped) {
		t.Errorf("skipped\n got %v\nwant %v", tr.Skipped, s.skipped)
	}
	if !slices.Equal(aborted, s.aborted) {
		t.Errorf("aborted %v, want %v", aborted, s.aborted)
	}
	if !slices.Equal(meta, s.meta) {
		t.Errorf("meta %v, want %v", meta, s.meta)
	}
	if !slices.Equal(tr.Compactions, s.compact) {
		t.Errorf("compactions %v, want %v", tr.Compactions, s.compact)
	}
	if len(calls) != s.calls {
		t.Errorf("%d call groups, want %d", len(calls), s.calls)
	}
}
