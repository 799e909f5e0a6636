// Command gen writes the BPE tables that pkg/tokenize embeds, from the
// .tiktoken files that github.com/pkoukk/tiktoken-go-loader ships inside its
// module (no network). Run it with `go generate ./pkg/tokenize`.
//
// Each output file <dir>/<encoding>.bin (o200k/o200k_base.bin,
// cl100k/cl100k_base.bin, one subpackage per encoding so that a build embeds
// only the tables it imports) has the layout that package
// bpetable describes, with the hash table already built. The generator checks that the ranks of a
// .tiktoken file are exactly 0…n-1 and that no token is longer than 255
// bytes, so that this layout holds every rank.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/harpe-dev/harpe/pkg/tokenize/internal/bpetable"
	"github.com/pkoukk/tiktoken-go-loader/assets"
)

func main() {
	out := "."
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	for _, enc := range []struct{ name, dir string }{{"o200k_base", "o200k"}, {"cl100k_base", "cl100k"}} {
		name := enc.name
		blob, err := build(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gen: %s: %v\n", name, err)
			os.Exit(1)
		}
		if err := os.WriteFile(filepath.Join(out, enc.dir, name+".bin"), blob, 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "gen: %v\n", err)
			os.Exit(1)
		}
	}
}

func build(name string) ([]byte, error) {
	raw, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return nil, err
	}
	var toks [][]byte
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: want 2 fields, got %d", line, len(f))
		}
		tok, err := base64.StdEncoding.DecodeString(string(f[0]))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		rank, err := strconv.Atoi(string(f[1]))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		if rank != len(toks) {
			return nil, fmt.Errorf("line %d: rank %d, want %d (ranks must be 0…n-1 in order)", line, rank, len(toks))
		}
		if len(tok) == 0 || len(tok) > 255 {
			return nil, fmt.Errorf("line %d: token of %d bytes", line, len(tok))
		}
		toks = append(toks, tok)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	// A load factor under 0.4 keeps probes short for the many lookups of
	// pairs that are not tokens.
	bits := 1
	for 1<<bits < 2*len(toks) {
		bits++
	}
	slots := make([]uint32, 1<<bits)
	mask := uint64(len(slots) - 1)
	probes, worst := 0, 0
	for r, t := range toks {
		h := bpetable.Hash(string(t)) & mask
		k := 1
		for slots[h] != 0 {
			h = (h + 1) & mask
			k++
		}
		slots[h] = uint32(r) + 1
		probes += k
		worst = max(worst, k)
	}
	fmt.Fprintf(os.Stderr, "gen: %s: %d tokens, %d slots, %.2f probes on average, %d at worst\n",
		name, len(toks), len(slots), float64(probes)/float64(len(toks)), worst)
	var b bytes.Buffer
	b.WriteString(bpetable.Magic)
	binary.Write(&b, binary.LittleEndian, uint32(len(toks)))
	binary.Write(&b, binary.LittleEndian, uint32(bits))
	b.Write([]byte{0, 0})
	binary.Write(&b, binary.LittleEndian, slots)
	var off uint32
	for _, t := range toks {
		binary.Write(&b, binary.LittleEndian, off)
		off += uint32(len(t))
	}
	binary.Write(&b, binary.LittleEndian, off)
	for _, t := range toks {
		b.Write(t)
	}
	return b.Bytes(), nil
}
