// Command gen-items writes a synthetic agent context as items JSONL, for
// benchmarks and simulations. The output depends only on the flags: the
// random source has a fixed seed.
//
//	go run ./scripts/gen-items -n 100000 > /tmp/items.jsonl   # ≈ 50 MB
//
// Each item is one of: a system prompt (pinned), a goal (priority 0), a
// memory, a tool call and its result (one group), a retrieval chunk (with
// relevance and a source), a chat turn, or a confidential note. Contents
// are prose of 10 to 190 words with some punctuation, escapes, accented
// Latin, CJK, emoji and hex ids, so the reader and the counter see the
// usual mix. Timestamps advance a few seconds per item from 2026-05-20.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"
)

var words = strings.Fields(`the a to of and in is that for it on with as was be
this are by not or from at an but have which we can all will if one their
there has been more when out so up what about into than them some could only
other then its over also time after new first two use way should work our
file test build error parser function value line token budget context model
call tool result memory goal system deploy rollback migration schema column
index query cache request response latency retry timeout config flag branch
commit review patch release version module package import export handler
résumé café naïve façade 数据 上下文 模型 🙂 🚀 ✅`)

func main() {
	n := flag.Int("n", 100000, "number of items")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	rng := rand.New(rand.NewPCG(*seed, 0x6861727065))
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer w.Flush()
	t := time.Date(2026, 5, 20, 9, 0, 0, 0, time.UTC)
	var b []byte
	for i := 0; i < *n; i++ {
		t = t.Add(time.Duration(1+rng.IntN(20)) * time.Second)
		b = b[:0]
		b = append(b, `{"id":"it-`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, '"')
		switch k := rng.IntN(100); {
		case i == 0:
			b = field(b, "role", "system")
			b = field(b, "dimension", "system")
			b = append(b, `,"pinned":true`...)
			b = content(b, rng, 60)
		case i == 1:
			b = field(b, "role", "user")
			b = field(b, "dimension", "goal")
			b = append(b, `,"priority":0`...)
			b = content(b, rng, 30)
		case k < 30: // a tool call; its result follows as the next item
			g := "g-" + strconv.Itoa(i)
			b = field(b, "role", "assistant")
			b = field(b, "dimension", "tool")
			b = field(b, "group", g)
			b = num(b, "priority", 2+rng.IntN(8))
			b = content(b, rng, 12)
			b = stamp(b, t)
			b = append(b, "}\n"...)
			w.Write(b)
			i++
			if i == *n {
				return
			}
			b = b[:0]
			b = append(b, `{"id":"it-`...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, '"')
			b = field(b, "role", "tool")
			b = field(b, "dimension", "tool")
			b = field(b, "group", g)
			b = num(b, "priority", 3+rng.IntN(10))
			b = content(b, rng, 40+rng.IntN(150))
		case k < 55:
			b = field(b, "dimension", "retrieval")
			b = num(b, "priority", 5+rng.IntN(10))
			b = append(b, `,"relevance":`...)
			b = strconv.AppendFloat(b, float64(rng.IntN(1000))/1000, 'f', -1, 64)
			b = field(b, "source", fmt.Sprintf("docs/%x.md#%d", rng.Uint32(), rng.IntN(40)))
			b = content(b, rng, 40+rng.IntN(150))
		case k < 70:
			b = field(b, "dimension", "memory")
			b = num(b, "priority", 1+rng.IntN(12))
			b = num(b, "token_count", 10+rng.IntN(90))
			b = content(b, rng, 10+rng.IntN(60))
		case k < 72:
			b = field(b, "dimension", "memory")
			b = append(b, `,"confidential":true`...)
			b = content(b, rng, 10+rng.IntN(20))
		default:
			role := "user"
			if rng.IntN(2) == 0 {
				role = "assistant"
			}
			b = field(b, "role", role)
			b = field(b, "dimension", "history")
			b = num(b, "priority", 4+rng.IntN(12))
			b = content(b, rng, 10+rng.IntN(120))
		}
		b = stamp(b, t)
		b = append(b, "}\n"...)
		w.Write(b)
	}
}

func field(b []byte, k, v string) []byte {
	b = append(b, `,"`...)
	b = append(b, k...)
	b = append(b, `":`...)
	return strconv.AppendQuote(b, v)
}

func num(b []byte, k string, v int) []byte {
	b = append(b, `,"`...)
	b = append(b, k...)
	b = append(b, `":`...)
	return strconv.AppendInt(b, int64(v), 10)
}

func stamp(b []byte, t time.Time) []byte {
	return field(b, "timestamp", t.Format(time.RFC3339))
}

// content appends a "content" field of about nw words.
func content(b []byte, rng *rand.Rand, nw int) []byte {
	b = append(b, `,"content":"`...)
	for j := range nw {
		if j > 0 {
			switch rng.IntN(14) {
			case 0:
				b = append(b, ", "...)
			case 1:
				b = append(b, `. `...)
			case 2:
				b = append(b, `\n`...)
			default:
				b = append(b, ' ')
			}
		}
		switch rng.IntN(60) {
		case 0:
			b = fmt.Appendf(b, "%08x", rng.Uint32())
		case 1:
			b = append(b, `\"quoted\"`...)
		default:
			b = append(b, words[rng.IntN(len(words))]...)
		}
	}
	return append(b, '"')
}
