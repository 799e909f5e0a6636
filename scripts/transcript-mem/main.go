// Command transcript-mem reads one transcript with pkg/transcript and
// prints what it kept, so `/usr/bin/time -v` can show the reader's peak
// memory on a large input:
//
//	go run ./scripts/gen-transcripts -big 1000000000 > /tmp/big.jsonl
//	go build -o /tmp/transcript-mem ./scripts/transcript-mem
//	/usr/bin/time -v /tmp/transcript-mem /tmp/big.jsonl
package main

import (
	"fmt"
	"os"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: transcript-mem FILE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	ts, err := transcript.Read(f, os.Args[1], "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, t := range ts {
		text := 0
		for i := range t.Messages {
			text += len(t.Messages[i].Text)
		}
		fmt.Printf("%s: %d messages, %d turns, %d bytes of text kept, %d tokens billed (estimate)\n",
			t.Format, len(t.Messages), t.Turns, text, transcript.BilledTokens(t, tokenize.Estimate))
	}
}
