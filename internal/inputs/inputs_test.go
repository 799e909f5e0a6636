package inputs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree writes files (path → content) under a temporary directory.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExpand(t *testing.T) {
	dir := tree(t,
		"projects/-home-a/b.jsonl",
		"projects/-home-a/b/subagents/agent-1.jsonl",
		"projects/-home-a/a.jsonl",
		"projects/.git/config.json",
		".hidden.jsonl",
		"notes.md",
		"Z.JSON",
	)
	rel := func(ins []Input) []string {
		var out []string
		for _, in := range ins {
			r, _ := filepath.Rel(dir, in.Path)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	ins, skips, err := Expand([]string{dir}, testExts)
	if err != nil {
		t.Fatal(err)
	}
	// Lexical order of the walk: "Z.JSON" (upper case) first, a directory's
	// entries by name ("b" before "b.jsonl").
	want := []string{"Z.JSON", "projects/-home-a/a.jsonl", "projects/-home-a/b/subagents/agent-1.jsonl", "projects/-home-a/b.jsonl"}
	if got := rel(ins); !slices.Equal(got, want) {
		t.Errorf("files\n got %q\nwant %q", got, want)
	}
	for _, in := range ins {
		if !in.FromDir {
			t.Errorf("%s: FromDir false", in.Path)
		}
	}
	var reasons []string
	for _, s := range skips {
		r, _ := filepath.Rel(dir, strings.TrimSuffix(s.Path, string(filepath.Separator)))
		reasons = append(reasons, filepath.ToSlash(r)+": "+s.Reason)
	}
	wantSkips := []string{".hidden.jsonl: hidden", "notes.md: not a transcript file name", "projects/.git: hidden"}
	if !slices.Equal(reasons, wantSkips) {
		t.Errorf("skips\n got %q\nwant %q", reasons, wantSkips)
	}

	// Files named are read whatever their name; "-" is standard input.
	named := filepath.Join(dir, "notes.md")
	ins, skips, err = Expand([]string{named, "-"}, testExts)
	if err != nil || len(skips) != 0 || len(ins) != 2 || ins[0].Path != named || ins[0].FromDir || ins[1].Path != Stdin {
		t.Errorf("named: %+v %+v %v", ins, skips, err)
	}
	if ins, _, _ := Expand(nil, testExts); len(ins) != 1 || ins[0].Path != Stdin {
		t.Errorf("no args: %+v", ins)
	}
	if _, _, err := Expand([]string{filepath.Join(dir, "missing")}, testExts); err == nil || !strings.HasSuffix(err.Error(), "missing: no such file or directory") {
		t.Errorf("missing path: %v", err)
	}

	// The endings are the caller's: with ".md" alone, only the notes are
	// read under the directory.
	ins, skips, err = Expand([]string{dir}, []string{".md"})
	if got := rel(ins); err != nil || !slices.Equal(got, []string{"notes.md"}) || len(skips) != 6 {
		t.Errorf("endings .md: files %q, %d skipped, %v", got, len(skips), err)
	}
}

// testExts are the file name endings the tests walk for.
var testExts = []string{".jsonl", ".json"}

func TestMap(t *testing.T) {
	ins := []Input{{Path: "a"}, {Path: Stdin}, {Path: "b"}, {Path: "c"}}
	res, errs := Map(context.Background(), ins, 2, func(in Input) (string, error) {
		if in.Path == "b" {
			return "", errors.New("bad b")
		}
		return strings.ToUpper(in.Path), nil
	})
	if !slices.Equal(res, []string{"A", "-", "", "C"}) {
		t.Errorf("results %q", res)
	}
	if errs[2] == nil || errs[0] != nil || errs[3] != nil {
		t.Errorf("errors %v", errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, errs = Map(ctx, []Input{{Path: "a"}}, 1, func(in Input) (int, error) { return 1, nil })
	if !errors.Is(errs[0], context.Canceled) {
		t.Errorf("cancelled: %v", errs[0])
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		name  string
		skips []Skip
		want  string
	}{
		{"none", nil, ""},
		{"one", []Skip{{"a.txt", "not a transcript file name"}}, "skipped 1 file: 1 not a transcript file name (a.txt)"},
		{"most common first, at most three named", []Skip{{".x", "hidden"}, {"a", "n"}, {"b", "n"}, {"c", "n"}, {"d", "n"}},
			"skipped 5 files: 4 n (a, b, c, … 1 more), 1 hidden (.x)"},
		{"ties by reason", []Skip{{"p", "zeta"}, {"q", "alpha"}}, "skipped 2 files: 1 alpha (q), 1 zeta (p)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summary(tt.skips); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
