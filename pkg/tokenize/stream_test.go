package tokenize

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func TestSafeBoundary(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"no boundary", "abc", 0},
		{"after newline before letter", "ab\ncd", 3},
		{"newline before space is not safe", "ab\n cd", 0},
		{"newline before slash is not safe", "ab\n/cd", 0},
		{"newline before newline is not safe", "ab\n\ncd", 4},
		{"newline before a non-ASCII letter", "ab\nécd", 3},
		{"newline before Chinese", "ab\n中文", 3},
		{"newline before an ideographic space is not safe", "ab\n\u3000x", 0},
		{"newline before an invalid byte is not safe", "ab\n\xffx", 0},
		{"Chinese space Chinese", "中 文", 3},
		{"mark space letter", "e\u0301 x", 3},
		{"letter space mark is not safe", "x \u0301", 0},
		{"letter space letter", "ab cd", 2},
		{"digit space letter is not safe", "a1 cd", 0},
		{"space at the end is not safe", "ab ", 0},
		{"last one wins", "a b\nc d", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SafeBoundary([]byte(tc.text)); got != tc.want {
				t.Errorf("SafeBoundary(%q) = %d, want %d", tc.text, got, tc.want)
			}
		})
	}
}

// TestChunksAddUp cuts random texts at every safe boundary and checks that
// the parts' counts add up to the whole text's, for each counter.
func TestChunksAddUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	extra := []string{"\n", "\nA", "\n/", "\n ", "a b", "x y", "\n'", "\ns", "\n\n", "\r\n",
		"\n中", "中 文", "é ü", "\u0301 x", "\n½", "\n\u0301", "\n’", "\n\u3000", "\x00", "\n\xff"}
	for k := range 400 {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			if rng.IntN(3) == 0 {
				b.WriteString(extra[rng.IntN(len(extra))])
			} else {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
		}
		text := b.String()
		for _, name := range Names() {
			c, _ := New(name)
			whole := countOf(c, text)
			// Cut at every safe boundary from the end, as CountReader does.
			tl := c.(chunker).newTally()
			rest := []byte(text)
			var parts []string
			for {
				cut := SafeBoundary(rest)
				if cut == 0 {
					break
				}
				parts = append(parts, string(rest[cut:]))
				rest = rest[:cut]
			}
			parts = append(parts, string(rest))
			for _, p := range parts {
				tl.add(context.Background(), p)
			}
			if got := tl.total(); got != whole {
				t.Fatalf("case %d %s: %q cut into %q: chunks give %d, whole %d", k, name, text, parts, got, whole)
			}
		}
		// The estimate alone is cut after any ASCII byte outside a word.
		tl := Estimate.(chunker).newTally()
		rest := []byte(text)
		for {
			cut := estimateBoundary(rest)
			if cut == 0 {
				break
			}
			tl.add(context.Background(), string(rest[cut:]))
			rest = rest[:cut]
		}
		tl.add(context.Background(), string(rest))
		if got, whole := tl.total(), countOf(Estimate, text); got != whole {
			t.Fatalf("case %d estimate alone: %q: chunks give %d, whole %d", k, text, got, whole)
		}
	}
}

// zeros reads NUL bytes for ever, as /dev/zero does.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestCountReaderBounded: what is held without a boundary is bounded.
// Lines of Chinese are cut after each line break (before, only printable
// ASCII after a line break made a boundary, and 200 MB of Chinese lines
// was held whole); NULs are cut anywhere for the estimate alone; an
// endless run for o200k_base ends with an *UnbrokenError.
func TestCountReaderBounded(t *testing.T) {
	// 20,000 lines of 100 Chinese characters and a line break: 3,020,000
	// bytes, never more than MaxUnbroken (64 KiB) without a boundary.
	line := strings.Repeat("中", 100) + "\n"
	text := strings.Repeat(line, 20000)
	counters := []Counter{Estimate, O200kBase, Cl100kBase}
	_, got, err := CountReader(context.Background(), strings.NewReader(text), counters, StreamOptions{ChunkSize: 16 << 10, MaxUnbroken: 64 << 10})
	if err != nil {
		t.Fatalf("Chinese lines: %v", err)
	}
	for i, c := range counters {
		if want := countOf(c, text); got[i] != want {
			t.Errorf("Chinese lines: %s = %d, want %d", c.Name(), got[i], want)
		}
	}
	// 8 MiB of NULs, for the estimate alone: every NUL is a piece of one
	// code point, so max(pieces, chars/4) = 8 MiB = 8,388,608.
	n, got, err := CountReader(context.Background(), io.LimitReader(zeros{}, 8<<20), []Counter{Estimate}, StreamOptions{ChunkSize: 64 << 10, MaxUnbroken: 256 << 10})
	if err != nil || n != 8<<20 || got[0] != 8<<20 {
		t.Errorf("NULs, estimate: read %d, count %v, %v; want 8388608 8388608", n, got, err)
	}
	// Endless NULs for o200k_base: one piece for ever.
	_, _, err = CountReader(context.Background(), zeros{}, []Counter{O200kBase}, StreamOptions{ChunkSize: 64 << 10, MaxUnbroken: 1 << 20})
	var ue *UnbrokenError
	if !errors.As(err, &ue) || ue.Limit != 1<<20 {
		t.Fatalf("endless NULs: err %v, want an UnbrokenError at 1 MiB", err)
	}
	if want := "more than 1 MiB without a place to cut the text"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want it to start %q", err, want)
	}
}

// TestCountReader counts the samples through CountReader with tiny chunks
// and one byte per read, and compares with counting them whole.
func TestCountReader(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/tokens/*.txt")
	var all []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data...)
	}
	counters := []Counter{Estimate, O200kBase, Cl100kBase}
	for _, size := range []int{1, 7, 64, 1000, 1 << 20} {
		n, got, err := CountReader(context.Background(), iotest.OneByteReader(bytes.NewReader(all)), counters, StreamOptions{ChunkSize: size, Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if n != int64(len(all)) {
			t.Errorf("chunk %d: read %d bytes, want %d", size, n, len(all))
		}
		for i, c := range counters {
			if want := countOf(c, string(all)); got[i] != want {
				t.Errorf("chunk %d: %s = %d, want %d", size, c.Name(), got[i], want)
			}
		}
	}
}

// With the default chunk size the read buffer starts at 16 KiB and
// doubles: 600 KB read whole from a bytes.Reader takes reads of 16, 32, 64,
// 128 and 256 KiB and cuts a chunk after each; the counts are those of the
// whole text all the same.
func TestCountReaderGrowingBuffer(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/tokens/*.txt")
	var all []byte
	for len(all) < 600_000 {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, data...)
		}
	}
	counters := []Counter{Estimate, O200kBase}
	n, got, err := CountReader(context.Background(), bytes.NewReader(all), counters, StreamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len(all)) {
		t.Errorf("read %d bytes, want %d", n, len(all))
	}
	for i, c := range counters {
		if want := countOf(c, string(all)); got[i] != want {
			t.Errorf("%s = %d, want %d", c.Name(), got[i], want)
		}
	}
}

type plainCounter struct{}

func (plainCounter) Count(_ context.Context, s string) (int, error) { return len(s), nil }
func (plainCounter) Name() string                                   { return "bytes" }

// A counter that does not chunk gets the whole text.
func TestCountReaderOtherCounter(t *testing.T) {
	n, got, err := CountReader(context.Background(), strings.NewReader("ab\ncd ef"), []Counter{plainCounter{}, Estimate}, StreamOptions{ChunkSize: 2})
	if err != nil || n != 8 || got[0] != 8 || got[1] != 3 {
		t.Errorf("got %d %v %v, want 8 [8 3] nil", n, got, err)
	}
}

// cancelReader cancels its context as it is read: the context is done
// once the text is in.
type cancelReader struct {
	r      io.Reader
	cancel context.CancelFunc
}

func (c cancelReader) Read(p []byte) (int, error) {
	c.cancel()
	return c.r.Read(p)
}

// A counter of the caller's that does not look at its context is not
// handed a text whose reading the context stopped.
func TestCountReaderOtherCounterCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, got, err := CountReader(ctx, cancelReader{strings.NewReader("ab\ncd ef"), cancel}, []Counter{plainCounter{}}, StreamOptions{})
	if !errors.Is(err, context.Canceled) || got != nil {
		t.Errorf("got %v, %v; want no counts and context.Canceled", got, err)
	}
}

func TestCountReaderError(t *testing.T) {
	_, _, err := CountReader(context.Background(), iotest.ErrReader(io.ErrClosedPipe), []Counter{Estimate}, StreamOptions{})
	if err != io.ErrClosedPipe {
		t.Errorf("err = %v, want %v", err, io.ErrClosedPipe)
	}
}

// A text without any safe boundary is held whole and still counted right,
// as are a huge line and empty input.
func TestCountReaderNoBoundary(t *testing.T) {
	for name, text := range map[string]string{
		"no boundary": strings.Repeat("x,", 100000),
		"huge line":   strings.Repeat("a1", 300000) + "\nend",
		"empty":       "",
		"invalid":     strings.Repeat("\xff\xfe\n", 5000),
	} {
		counters := []Counter{Estimate, O200kBase, Cl100kBase}
		_, got, err := CountReader(context.Background(), strings.NewReader(text), counters, StreamOptions{ChunkSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range counters {
			if want := countOf(c, text); got[i] != want {
				t.Errorf("%s: %s = %d, want %d", name, c.Name(), got[i], want)
			}
		}
	}
}
