package tokenize

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/harpe-dev/harpe/pkg/tokenize/internal/bpetable"
)

// The package's own tests cannot import the subpackages (they import this
// one), so they file the same tables the subpackages embed, as those do.
func init() {
	for _, t := range []struct{ name, path string }{
		{"o200k_base", "o200k/o200k_base.bin"},
		{"cl100k_base", "cl100k/cl100k_base.bin"},
	} {
		b, err := os.ReadFile(t.path)
		if err != nil {
			panic(err)
		}
		bpetable.Embed(t.name, b)
	}
}

func readTable(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// tinyTable builds a well-formed table of the given tokens by hand, in the
// layout package bpetable documents.
func tinyTable(toks ...string) []byte {
	bits := uint32(1)
	for 1<<bits < 2*len(toks) {
		bits++
	}
	slots := make([]uint32, 1<<bits)
	for r, t := range toks {
		h := bpetable.Hash(t) & uint64(len(slots)-1)
		for slots[h] != 0 {
			h = (h + 1) & uint64(len(slots)-1)
		}
		slots[h] = uint32(r) + 1
	}
	b := []byte(bpetable.Magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(toks)))
	b = binary.LittleEndian.AppendUint32(b, bits)
	b = append(b, 0, 0)
	for _, s := range slots {
		b = binary.LittleEndian.AppendUint32(b, s)
	}
	off := 0
	for _, t := range toks {
		b = binary.LittleEndian.AppendUint32(b, uint32(off))
		off += len(t)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(off))
	for _, t := range toks {
		b = append(b, t...)
	}
	return b
}

func TestCheckTable(t *testing.T) {
	good := tinyTable("a", "b", "ab")
	tests := []struct {
		name string
		data []byte
		want string // "" for no error
	}{
		{"good", good, ""},
		{"real o200k", readTable(t, "o200k/o200k_base.bin"), ""},
		{"empty", nil, "bad header"},
		{"wrong magic", append([]byte("XBPE3\n"), good[len(bpetable.Magic):]...), "bad header"},
		{"truncated", good[:len(good)-1], "size"},
		{"extra byte", append(append([]byte{}, good...), 'x'), "size"},
		{"header only", good[:bpetable.HeaderSize], "truncated"},
		{"full hash table", fullSlots(good), "no empty slot"},
		// good's offsets 0, 1, 2, 4 follow its 8 slots; token 2 then starts
		// before token 1.
		{"offsets going back", setUint32(good, bpetable.HeaderSize+4*8+4*2, 0), "bad offset 0 of token 2"},
		{"offsets not from 0", setUint32(good, bpetable.HeaderSize+4*8, 1), "bad offset 1 of token 0"},
		{"token of 256 bytes", tinyTable("a", strings.Repeat("x", 256)), "bad offset 257 of token 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkTable(tt.data)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// setUint32 returns a copy of d with the uint32 at i set to v.
func setUint32(d []byte, i int, v uint32) []byte {
	d = append([]byte{}, d...)
	binary.LittleEndian.PutUint32(d[i:], v)
	return d
}

// fullSlots returns a copy of table d with every empty slot holding rank 0.
func fullSlots(d []byte) []byte {
	d = append([]byte{}, d...)
	bits := binary.LittleEndian.Uint32(d[len(bpetable.Magic)+4:])
	for i := 0; i < 4<<bits; i += 4 {
		if binary.LittleEndian.Uint32(d[bpetable.HeaderSize+i:]) == 0 {
			binary.LittleEndian.PutUint32(d[bpetable.HeaderSize+i:], 1)
		}
	}
	return d
}

// FuzzTable feeds any bytes to LoadEncoding's check, and uses every table it
// accepts: counting, encoding and decoding must end without a panic
// whatever the table says.
func FuzzTable(f *testing.F) {
	f.Add(tinyTable("a", "b", "ab"), "abab ab")
	f.Add(tinyTable("x"), "héllo, wörld")
	f.Add(fullSlots(tinyTable("a", "b")), "ab")
	f.Fuzz(func(t *testing.T, table []byte, text string) {
		if checkTable(table) != nil {
			return
		}
		e := &Encoding{name: "fuzz", data: table, next: nextO200k}
		n := countOf(e, text)
		ids := e.Encode(text)
		_ = e.Decode(ids)
		if n < 0 {
			t.Fatalf("Count = %d", n)
		}
	})
}

// TestLoadEncoding: a table read by LoadEncoding counts as the embedded
// one does, and leaves the package's own encodings alone.
func TestLoadEncoding(t *testing.T) {
	o200k := readTable(t, "o200k/o200k_base.bin")
	e, err := LoadEncoding("o200k_base", o200k)
	if err != nil {
		t.Fatal(err)
	}
	if e == O200kBase || e.Name() != "o200k_base" || !e.Registered() {
		t.Errorf("LoadEncoding = %p %s %v, want a new o200k_base with its table", e, e.Name(), e.Registered())
	}
	// "Hello, world!" is [13225 11 2375 0] in tiktoken's o200k_base.
	if n := countOf(e, "Hello, world!"); n != 4 {
		t.Errorf("Count = %d, want 4", n)
	}
	if _, err := LoadEncoding("p50k_base", o200k); err == nil || !strings.Contains(err.Error(), `no exact encoding "p50k_base"`) {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := LoadEncoding("cl100k_base", []byte("junk")); err == nil || err.Error() != "tokenize: cl100k_base: not a table (bad header)" {
		t.Errorf("junk table: %v", err)
	}
}

// TestUnregistered checks what a build without a table sees: New names the
// package to import, direct use panics with the same hint, and a table
// read with LoadEncoding counts all the same (New still says what to
// import: the package's encodings do not change at run time).
func TestUnregistered(t *testing.T) {
	fresh := &Encoding{name: "o200k_base", pkg: "o200k", next: nextO200k}
	saved := encodings
	encodings = []*Encoding{fresh, Cl100kBase}
	defer func() { encodings = saved }()
	// The package's external tests import package o200k, which files its
	// embedded table for first use: a build without it has none.
	embedded := bpetable.Embedded("o200k_base")
	bpetable.Embed("o200k_base", nil)
	defer bpetable.Embed("o200k_base", embedded)

	_, err := New("o200k_base")
	if err == nil || err.Error() != "tokenizer o200k_base is not in this build (import github.com/harpe-dev/harpe/pkg/tokenize/o200k)" {
		t.Errorf("New: %v", err)
	}
	func() {
		defer func() {
			r := recover()
			if s, _ := r.(string); !strings.Contains(s, "import github.com/harpe-dev/harpe/pkg/tokenize/o200k") {
				t.Errorf("Count panicked with %v", r)
			}
		}()
		countOf(fresh, "x")
	}()
	c, err := LoadEncoding("o200k_base", readTable(t, "o200k/o200k_base.bin"))
	if err != nil {
		t.Fatal(err)
	}
	// "Hello, world!" is [13225 11 2375 0] in tiktoken's o200k_base.
	if n := countOf(c, "Hello, world!"); n != 4 {
		t.Errorf("Count after LoadEncoding = %d, want 4", n)
	}
	if _, err := New("o200k_base"); err == nil || fresh.Registered() {
		t.Errorf("LoadEncoding changed the package's encoding: New = %v, Registered = %v", err, fresh.Registered())
	}
}

// TestBadSlots checks that a table whose slots hold ranks past its tokens
// (a corrupt file a browser fetched, say) counts without panicking: such a
// slot ends the probe as an empty one would.
func TestBadSlots(t *testing.T) {
	d := tinyTable("a", "b", "ab")
	slots := d[bpetable.HeaderSize : bpetable.HeaderSize+4*8]
	for i := 0; i < len(slots); i += 4 {
		binary.LittleEndian.PutUint32(slots[i:], 1000)
	}
	if err := checkTable(d); err != nil {
		t.Fatal(err)
	}
	e := &Encoding{name: "bad", data: d, next: nextO200k}
	// No piece has a rank, so each byte is one token: "ab ab" is 5.
	if got := countOf(e, "ab ab"); got != 5 {
		t.Errorf("Count = %d, want 5", got)
	}
}

// TestTinyTable checks merging on a hand-made vocabulary: with tokens
// a, b, ab (ranks 0, 1, 2) "abab" merges to ab ab.
func TestTinyTable(t *testing.T) {
	e := &Encoding{name: "tiny", data: tinyTable("a", "b", "ab"), next: nextO200k}
	if got := e.Encode("abab"); len(got) != 2 || got[0] != 2 || got[1] != 2 {
		t.Errorf("Encode(abab) = %v, want [2 2]", got)
	}
}

// TestTableInPlace checks that a loaded table's offsets are the table's
// own bytes, not a copy, on a little-endian machine (they are stored, not
// computed: see package bpetable), and that they give the tokens' bytes.
func TestTableInPlace(t *testing.T) {
	data := readTable(t, "o200k/o200k_base.bin")
	e := &Encoding{name: "inplace", data: data, next: nextO200k}
	e.setup()
	if littleEndian {
		p := uintptr(unsafe.Pointer(&e.offs[0]))
		start := uintptr(unsafe.Pointer(&data[0]))
		if p < start || p >= start+uintptr(len(data)) {
			t.Errorf("offsets copied out of the table")
		}
	}
	// o200k_base's rank 0 is "!", rank 256 is "  " (two spaces, the first
	// merge), rank 1,000 is ".l" (read from the .tiktoken file).
	for r, want := range map[uint32]string{0: "!", 256: "  ", 1000: ".l"} {
		if got := e.token(r); got != want {
			t.Errorf("token %d = %q, want %q", r, got, want)
		}
	}
}
