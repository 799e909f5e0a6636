// Package bpetable defines the layout of the BPE tables that pkg/tokenize
// embeds and the generator writes, and the hash both use, so the hash table
// can be built once at generation time and read straight from the binary.
//
// A table is, in order (integers little endian):
//
//	"HBPE3\n"                 magic
//	n          uint32         number of tokens; token r has rank r
//	bits       uint32         the hash table has 1<<bits slots
//	pad        [2]byte        zero, so that what follows is 4-byte aligned
//	slots      [1<<bits]uint32  rank+1 of the token hashed there, 0 if empty
//	offs       [n+1]uint32    where token r starts in bytes; offs[n] = len(bytes)
//	bytes                     the tokens' bytes concatenated in rank order
//
// Slots use linear probing from Hash(token) & (1<<bits - 1). The offsets
// are stored rather than computed at load time (a prefix sum over the
// token lengths, and 800 KB of fresh memory for o200k_base: about 200 page
// faults in every process that counts), so a table is used in place.
package bpetable

import "sync"

// Magic starts every table.
const Magic = "HBPE3\n"

// HeaderSize is the size of the magic, the two counts and the padding.
const HeaderSize = len(Magic) + 10

// Hash is a fast, fixed (seedless) hash of a short byte string.
func Hash(s string) uint64 {
	const m1 = 0x9E3779B97F4A7C15
	const m2 = 0xBF58476D1CE4E5B9
	h := uint64(len(s)) * m1
	for len(s) >= 8 {
		v := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ v) * m1
		h ^= h >> 32
		s = s[8:]
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		v |= uint64(s[i]) << (8 * i)
	}
	h = (h ^ v) * m1
	h ^= h >> 29
	h *= m2
	h ^= h >> 32
	return h
}

// embedded are the tables that the encoding subpackages (o200k, cl100k)
// embed, by encoding name. A subpackage only files its table here when it is
// imported; package tokenize checks and loads it on the encoding's first use,
// so that a process that imports a table but never counts with it (harpe
// --version, harpe dates) does not read 2-4 MB of it at start-up.
var embedded struct {
	mu     sync.Mutex
	tables map[string][]byte
}

// Embed files the embedded table of the encoding called name.
func Embed(name string, table []byte) {
	embedded.mu.Lock()
	defer embedded.mu.Unlock()
	if embedded.tables == nil {
		embedded.tables = map[string][]byte{}
	}
	embedded.tables[name] = table
}

// Embedded returns the table filed by Embed for name, nil if none was.
func Embedded(name string) []byte {
	embedded.mu.Lock()
	defer embedded.mu.Unlock()
	return embedded.tables[name]
}
