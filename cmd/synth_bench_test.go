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
