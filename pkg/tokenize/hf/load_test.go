package hf

import (
	"os"
	"testing"
)

func BenchmarkLoadEnv(b *testing.B) {
	p := os.Getenv("HF_BENCH_FILE")
	if p == "" {
		b.Skip("HF_BENCH_FILE not set")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data, p); err != nil {
			b.Fatal(err)
		}
	}
}
