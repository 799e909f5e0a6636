package inputs

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetEach: the inputs are read in argument order, a file named twice
// once, standard input by its name; under a directory an empty file and
// one the reader refuses with a skippable error are passed over and
// counted, while the same refusal of a named file ends the reading.
func TestSetEach(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.jsonl", "A")
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write("sub/1.jsonl", "one")
	write("sub/2.jsonl", " \n")
	write("sub/3.jsonl", "odd")
	odd := errors.New("not ours")
	rules := Rules{Once: true, RefuseEmpty: true, Stdin: strings.NewReader("S"), StdinName: "stdin", Extensions: testExts,
		Skip: func(err error) string {
			if errors.Is(err, odd) {
				return "not ours"
			}
			return ""
		}}
	read := func(s *Set, got *[]string) error {
		return s.Each(context.Background(), func(name string, r io.Reader) error {
			b, _ := io.ReadAll(r)
			if string(b) == "odd" {
				return odd
			}
			*got = append(*got, filepath.Base(name)+"="+string(b))
			return nil
		})
	}
	s, err := NewSet([]string{a, "-", sub, a}, rules)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := read(s, &got); err != nil {
		t.Fatal(err)
	}
	if want := "a.jsonl=A stdin=S 1.jsonl=one"; strings.Join(got, " ") != want {
		t.Errorf("read %q, want %q", strings.Join(got, " "), want)
	}
	if len(s.Twice) != 1 || s.Twice[0] != a {
		t.Errorf("Twice = %q, want [%q]", s.Twice, a)
	}
	if s.Count() != 3 {
		t.Errorf("Count = %d, want 3", s.Count())
	}
	if want := "skipped 2 files: 1 empty (" + filepath.Join(sub, "2.jsonl") + "), 1 not ours (" + filepath.Join(sub, "3.jsonl") + ")"; s.Summary() != want {
		t.Errorf("Summary = %q, want %q", s.Summary(), want)
	}
	s, err = NewSet([]string{filepath.Join(sub, "3.jsonl")}, rules)
	if err != nil {
		t.Fatal(err)
	}
	if err := read(s, &got); !errors.Is(err, odd) {
		t.Errorf("a named file refused: got %v, want %v", err, odd)
	}
	s, err = NewSet([]string{filepath.Join(sub, "2.jsonl")}, rules)
	if err != nil {
		t.Fatal(err)
	}
	if err := read(s, &got); !errors.Is(err, ErrEmpty) {
		t.Errorf("a named empty file: got %v, want %v", err, ErrEmpty)
	}
}

// TestSetStdinFromStart: standard input that can seek, under
// StdinFromStart, is read from its start by each pass (a command reading
// its inputs twice), handed on as a reader that can seek, and is still
// ErrEmpty when blank; without StdinFromStart a second pass finds it read.
func TestSetStdinFromStart(t *testing.T) {
	for _, tt := range []struct {
		name      string
		fromStart bool
		in        string
		want      []string // each pass's read, or its error
	}{
		{"from start", true, "S", []string{"S", "S"}},
		{"blank", true, " \n", []string{"empty", "empty"}},
		{"read once", false, "S", []string{"S", "empty"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdin := strings.NewReader(tt.in)
			rules := Rules{RefuseEmpty: true, Stdin: stdin, StdinName: "stdin", StdinFromStart: tt.fromStart}
			for pass, want := range tt.want {
				s, err := NewSet([]string{"-"}, rules)
				if err != nil {
					t.Fatal(err)
				}
				got := ""
				err = s.Each(context.Background(), func(_ string, r io.Reader) error {
					if _, ok := r.(io.Seeker); ok != tt.fromStart {
						t.Errorf("pass %d: can seek %v, want %v", pass, ok, tt.fromStart)
					}
					b, _ := io.ReadAll(r)
					got = string(b)
					return nil
				})
				if errors.Is(err, ErrEmpty) {
					got = "empty"
				} else if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("pass %d read %q, want %q", pass, got, want)
				}
			}
		})
	}
}
