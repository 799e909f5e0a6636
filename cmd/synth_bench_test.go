package cmd

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
)

// BenchmarkSynthesizeFile runs harpe synthesize --budget 200000 on the
// file HARPE_BENCH_ITEMS names (scripts/gen-items -n 100000), the
// workload of scripts/bench-synthesize.sh, in-process for profiles.
func BenchmarkSynthesizeFile(b *testing.B) {
	path := os.Getenv("HARPE_BENCH_ITEMS")
	if path == "" {
		b.Skip("HARPE_BENCH_ITEMS names no items file")
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	for b.Loop() {
		code := Run(context.Background(), []string{"synthesize", "--budget", "200000", path},
			IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, func(string) (string, bool) { return "", false })
		if code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkStartVersion is harpe --version in-process: the command tree
// built and run, what every command pays before its work (package inits
// aside).
func BenchmarkStartVersion(b *testing.B) {
	for b.Loop() {
		if code := Run(context.Background(), []string{"--version"},
			IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, func(string) (string, bool) { return "", false }); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkStartCount1K is harpe count -t o200k_base on 1 KB in-process.
func BenchmarkStartCount1K(b *testing.B) {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 23)[:1024]
	for b.Loop() {
		if code := Run(context.Background(), []string{"count", "-t", "o200k_base"},
			IO{In: strings.NewReader(text), Out: io.Discard, Err: io.Discard}, func(string) (string, bool) { return "", false }); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
