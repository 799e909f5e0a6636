package cmd

import (
	"bufio"
	"context"
	"io"
	"testing"
)

// BenchmarkSpool writes 32 MiB of standard output through the spool (8
// MiB in memory, the rest in a temporary file) and copies it out, as every
// run with a large report does.
func BenchmarkSpool(b *testing.B) {
	line := make([]byte, 100)
	for i := range line {
		line[i] = 'x'
	}
	line[len(line)-1] = '\n'
	const total = 32 << 20
	b.SetBytes(total)
	for b.Loop() {
		var s spool
		bw := bufio.NewWriterSize(&s, 64<<10)
		for n := 0; n < total; n += len(line) {
			bw.Write(line)
		}
		if err := bw.Flush(); err != nil {
			b.Fatal(err)
		}
		if err := s.copyTo(context.Background(), io.Discard); err != nil {
			b.Fatal(err)
		}
		s.close()
	}
}
