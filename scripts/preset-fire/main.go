// Command preset-fire compares the harness presets of harpe replay
// (claude-code, codex) with the compactions a Claude Code session
// records: for each automatic compaction (a compact_boundary record with
// its compactMetadata), the call at which the preset would have fired
// against the call at which the harness really compacted, and the
// harness's own count (preTokens) against harpe's estimate at that
// point. docs/real-sessions.md has the figures on the public sessions.
//
//	go run ./scripts/preset-fire FILE... > fires.tsv
//	go run ./scripts/preset-fire -micro FILE... > pauses.tsv
//
// With -micro it lists instead every call that comes 60 minutes or more
// after the reply before it: the input the record shows, the input
// expected without a clearing (the previous call's record plus what was
// added since, estimated as claude-code does), and the tokens the micro
// edit clears there (harpe's counter).
//
// The session is cut just before each recorded summary and continued
// with the prompts that follow it and the first reply after it (call R):
// the preset decides before call R on the history the harness compacted.
// Earlier compactions stay in, so every preset starts each stretch from
// the harness's own reset, as a replay does. A compaction repeated in
// several files (checkpoint copies) is counted once, by its uuid.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

type boundary struct {
	UUID      string `json:"uuid"`
	Version   string `json:"version"`
	Subtype   string `json:"subtype"`
	Sidechain bool   `json:"isSidechain"`
	Meta      struct {
		Trigger   string `json:"trigger"`
		PreTokens int    `json:"preTokens"`
	} `json:"compactMetadata"`
}

// presets are the specs compared; the first is the default.
var presets = []string{"claude-code", "claude-code:reserve=32000"}

func main() {
	seen := map[string]bool{}
	if len(os.Args) > 1 && os.Args[1] == "-micro" {
		fmt.Println("file\tcall\tgap_minutes\trecorded\texpected\tmicro_clears")
		for _, name := range os.Args[2:] {
			if err := pauses(name, seen); err != nil {
				fmt.Fprintf(os.Stderr, "preset-fire: %s: %v\n", name, err)
			}
		}
		return
	}
	fmt.Println("file\tuuid\tversion\ttrigger\tpre_tokens\tcall\testimate\t" + strings.Join(presets, "\t"))
	for _, name := range os.Args[1:] {
		if err := one(name, seen); err != nil {
			fmt.Fprintf(os.Stderr, "preset-fire: %s: %v\n", name, err)
		}
	}
}

func one(name string, seen map[string]bool) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var bs []boundary
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if !bytes.Contains(sc.Bytes(), []byte(`"compact_boundary"`)) {
			continue
		}
		var b boundary
		if json.Unmarshal(sc.Bytes(), &b) == nil && b.Subtype == "compact_boundary" && !b.Sidechain {
			bs = append(bs, b)
		}
	}
	if len(bs) == 0 {
		return nil
	}
	ts, err := transcript.Read(bytes.NewReader(data), name, "")
	if err != nil {
		return err
	}
	t := ts[0]
	if len(t.Compactions) != len(bs) {
		return fmt.Errorf("%d compact_boundary records, %d compactions read", len(bs), len(t.Compactions))
	}
	starts := callStarts(t)
	prevCall := 0 // the first call after the previous compaction
	for k, s := range t.Compactions {
		b := bs[k]
		r := -1 // the reply that starts call R
		for _, i := range starts {
			if i > s {
				r = i
				break
			}
		}
		if r < 0 {
			break // compacted at the end: no call to compare
		}
		callR := callNumber(starts, r)
		if seen[b.UUID] || b.Meta.Trigger != "auto" {
			prevCall = callR
			continue
		}
		seen[b.UUID] = true
		cut := cutAt(t, k, s, r)
		row := []string{name, b.UUID, b.Version, b.Meta.Trigger, fmt.Sprint(b.Meta.PreTokens), fmt.Sprint(callR)}
		est, err := estimate(cut, starts, callR)
		if err != nil {
			return err
		}
		row = append(row, fmt.Sprint(est))
		for _, spec := range presets {
			f, err := firstFire(cut, spec, prevCall)
			if err != nil {
				return err
			}
			row = append(row, fmt.Sprint(f))
		}
		fmt.Println(strings.Join(row, "\t"))
		prevCall = callR
	}
	return nil
}

// cutAt is t up to summary s (the compactions before it kept), then the
// prompts between s and reply r, then r.
func cutAt(t *transcript.Transcript, k, s, r int) *transcript.Transcript {
	c := *t
	c.Messages = append([]transcript.Message(nil), t.Messages[:s]...)
	for i := s + 1; i < r; i++ {
		if m := t.Messages[i]; m.Role == transcript.RoleUser && !m.Meta && m.ToolCallID == "" {
			c.Messages = append(c.Messages, m)
		}
	}
	c.Messages = append(c.Messages, t.Messages[r])
	for i := range c.Messages {
		c.Messages[i].Index = i
	}
	c.Compactions = t.Compactions[:k]
	return &c
}

// firstFire is the first call after prevCall before which spec compacts
// on cut, -1 for none (its last call is the harness's call R).
func firstFire(cut *transcript.Transcript, spec string, prevCall int) (int, error) {
	o := window.ReplayOptions{Options: window.DefaultOptions()}
	ss, err := window.ParseAll([]string{spec}, o)
	if err != nil {
		return 0, err
	}
	res, err := window.Replay(context.Background(), cut, ss, o)
	if err != nil {
		return 0, err
	}
	for _, e := range res[0].Events {
		if e.Call > prevCall {
			return e.Call, nil
		}
	}
	return -1, nil
}

// estimate is what claude-code counts before call R on cut when it has
// not compacted in the stretch: the recorded input of call R−1, the
// replies since at their measured size, and a token per 4 characters of
// the rest.
func estimate(cut *transcript.Transcript, starts []int, callR int) (int, error) {
	if callR < 2 {
		return 0, nil
	}
	m := cut.Messages[starts[callR-2]]
	if m.InputTokens == nil {
		return 0, nil
	}
	sizes, _, err := window.MessageSizes(context.Background(), cut, window.ReplayOptions{Options: window.DefaultOptions()})
	if err != nil {
		return 0, err
	}
	est := *m.InputTokens
	for i := starts[callR-2]; i < len(cut.Messages)-1; i++ {
		m := cut.Messages[i]
		if m.Role == transcript.RoleAssistant {
			est += sizes[i]
			continue
		}
		n := utf8.RuneCountInString(m.Text)
		for _, tc := range m.ToolCalls {
			n += utf8.RuneCountInString(tc.Name) + utf8.RuneCountInString(tc.Arguments)
		}
		est += (n + 2) / 4
	}
	return est, nil
}

// callStarts lists the message index that starts each call.
func callStarts(t *transcript.Transcript) []int {
	var out []int
	prev := ""
	for i, m := range t.Messages {
		if m.Role == transcript.RoleAssistant && !m.Meta && (m.Call == "" || m.Call != prev) {
			out = append(out, i)
		}
		if m.Role == transcript.RoleAssistant {
			prev = m.Call
		}
	}
	return out
}

// callNumber is the 1-based number of the call reply i starts.
func callNumber(starts []int, i int) int {
	for k, s := range starts {
		if s == i {
			return k + 1
		}
	}
	return -1
}

// pauses lists the calls of name that follow a pause of an hour or more
// (each once over all files, by the reply's id).
func pauses(name string, seen map[string]bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	ts, err := transcript.Read(f, name, "")
	if err != nil {
		return err
	}
	t := ts[0]
	o := window.ReplayOptions{Options: window.DefaultOptions(), CountedSizes: true}
	ss, err := window.ParseAll([]string{"full", "micro"}, o)
	if err != nil {
		return err
	}
	res, err := window.Replay(context.Background(), t, ss, o)
	if err != nil {
		return err
	}
	full, micro := res[0].Calls, res[1].Calls
	sizes, _, err := window.MessageSizes(context.Background(), t, window.ReplayOptions{Options: window.DefaultOptions()})
	if err != nil {
		return err
	}
	starts := callStarts(t)
	summary := map[int]bool{}
	for _, i := range t.Compactions {
		summary[i] = true
	}
	for k := 1; k < len(starts); k++ {
		r := starts[k]
		last := -1
		for i := r - 1; i >= 0; i-- {
			if t.Messages[i].Role == transcript.RoleAssistant {
				last = i
				break
			}
		}
		compacted := false
		for i := starts[k-1]; i < r; i++ {
			compacted = compacted || summary[i]
		}
		if last < 0 || compacted || t.Messages[r].InputTokens == nil || t.Messages[starts[k-1]].InputTokens == nil {
			continue
		}
		gap := t.Messages[r-1].Timestamp.Sub(t.Messages[last].Timestamp)
		id := t.Messages[r].Call
		if gap.Minutes() < 60 || t.Messages[r-1].Timestamp.IsZero() || t.Messages[last].Timestamp.IsZero() || seen[id] {
			continue
		}
		seen[id] = true
		expected := *t.Messages[starts[k-1]].InputTokens
		for i, m := range t.Messages[starts[k-1]:r] {
			if m.Role == transcript.RoleAssistant {
				expected += sizes[starts[k-1]+i]
				continue
			}
			n := utf8.RuneCountInString(m.Text)
			for _, tc := range m.ToolCalls {
				n += utf8.RuneCountInString(tc.Name) + utf8.RuneCountInString(tc.Arguments)
			}
			expected += (n + 2) / 4
		}
		fmt.Printf("%s\t%d\t%.0f\t%d\t%d\t%d\n", name, k+1, gap.Minutes(), *t.Messages[r].InputTokens, expected, full[k].Tokens-micro[k].Tokens)
	}
	return nil
}
