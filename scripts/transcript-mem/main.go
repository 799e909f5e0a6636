// Command transcript-mem reads one transcript with pkg/transcript and
// prints what it kept, so `/usr/bin/time -v` can show the reader's peak
// memory on a large input:
//
//	go run ./scripts/gen-transcripts -big 1000000000 > /tmp/big.jsonl
//	go build -o /tmp/transcript-mem ./scripts/transcript-mem
//	/usr/bin/time -v /tmp/transcript-mem /tmp/big.jsonl
//	/usr/bin/time -v /tmp/transcript-mem -scan /tmp/big.jsonl
//
// -scan counts the billed tokens through transcript.CountBilled, which
// keeps no messages.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

func main() {
	scan := flag.Bool("scan", false, "stream through CountBilled instead of Read")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: transcript-mem [-scan] FILE")
		os.Exit(2)
	}
	name := flag.Arg(0)
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	if *scan {
		n, err := transcript.CountBilled(context.Background(), f, name, "", tokenize.Estimate)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%d tokens billed (estimate)\n", n)
		return
	}
	ts, err := transcript.Read(f, name, "")
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
