package inputs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDedupe(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(a, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(dir, "b.jsonl")
	ins := []Input{{Path: a}, {Path: b}, {Path: dir + "/./a.jsonl"}, {Path: link}, {Path: Stdin}, {Path: Stdin}, {Path: b, FromDir: true}}
	kept, dropped := Dedupe(ins)
	var paths []string
	for _, in := range kept {
		paths = append(paths, in.Path)
	}
	// a, b (missing, kept by its spelling) and stdin once each; the other
	// spelling of a, the link to it, stdin again and b again dropped.
	if want := []string{a, b, Stdin}; !slices.Equal(paths, want) {
		t.Errorf("kept %q, want %q", paths, want)
	}
	if want := []string{dir + "/./a.jsonl", link, Stdin, b}; !slices.Equal(dropped, want) {
		t.Errorf("dropped %q, want %q", dropped, want)
	}
}
