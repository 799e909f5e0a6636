// Command gen-turns writes a synthetic agent session of N turns in harpe's
// event format, for benchmarks: go run ./scripts/gen-turns -turns 1000.
// The same flags always give the same file.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
)

func main() {
	turns := flag.Int("turns", 1000, "number of turns")
	seed := flag.Uint64("seed", 1, "seed of the generator")
	abort := flag.Int("abort-every", 20, "abort about one turn in N (0: none)")
	usage := flag.Bool("usage", true, "record provider usage on each reply")
	maxTool := flag.Int("max-tool-chars", 3000, "longest tool result, in characters")
	noTools := flag.Bool("no-tools", false, "every turn is a prompt and one reply")
	flag.Parse()
	t := transcriptgen.Generate(transcriptgen.Config{Seed: *seed, Turns: *turns, AbortEvery: *abort, Usage: *usage, Overhead: 1500, MaxToolChars: *maxTool, NoTools: *noTools})
	if err := transcriptgen.WriteEvents(os.Stdout, t); err != nil {
		fmt.Fprintln(os.Stderr, "gen-turns:", err)
		os.Exit(1)
	}
}
