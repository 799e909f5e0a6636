package inputs

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBlank(t *testing.T) {
	tests := []struct {
		name, in string
		want     bool
	}{
		{"nothing", "", true},
		{"white space", " \n\t\r\n", true},
		{"text after space", "  {", false},
		// A buffer (16 bytes, bufio's least) of white space and more:
		// left to the reader to judge.
		{"more space than the buffer", strings.Repeat(" ", 40), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tt.in), 16)
			if got := Blank(br); got != tt.want {
				t.Errorf("Blank(%q) = %v, want %v", tt.in, got, tt.want)
			}
			if rest, _ := io.ReadAll(br); string(rest) != tt.in {
				t.Errorf("consumed: %q left of %q", rest, tt.in)
			}
		})
	}
}

func TestBlankFile(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{{"\n \n", true}, {"\n x", false}} {
		p := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(p, []byte(tt.in), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := BlankFile(f)
		rest, _ := io.ReadAll(f)
		f.Close()
		if err != nil || got != tt.want || string(rest) != tt.in {
			t.Errorf("BlankFile(%q) = %v, %v (then read %q); want %v, at the start", tt.in, got, err, rest, tt.want)
		}
	}
}

func TestReaderStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := Reader(ctx, strings.NewReader("abc"))
	buf := make([]byte, 1)
	if n, err := r.Read(buf); n != 1 || err != nil {
		t.Fatalf("read %d, %v", n, err)
	}
	cancel()
	if _, err := r.Read(buf); !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v, want context.Canceled", err)
	}
	if _, ok := r.(io.Seeker); ok {
		t.Errorf("Reader can seek")
	}
	if _, ok := File(ctx, os.Stdin).(io.Seeker); !ok {
		t.Errorf("File cannot seek")
	}
}
