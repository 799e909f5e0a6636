package transcript

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/memtest"
)

// TestShareGPTReadHoldsNoIDs: while [Scan] reads a ShareGPT array it
// holds nothing per conversation it has handed on, measured as the live
// heap when the last conversation is done, 30,000 conversations less
// 10,000, over the 20,000 between. The reader kept every id the file
// gives (to name conversations that have none), about 40 B a
// conversation; now only ids a position could equal ("17", "#3").
func TestShareGPTReadHoldsNoIDs(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	held := func(n int) uint64 {
		in := memtest.ShareGPT(n)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		before := m.HeapAlloc
		var at uint64
		last := fmt.Sprintf("c%d", n-1)
		err := Scan(context.Background(), strings.NewReader(in), "s.json", "",
			func(*Transcript, *Message) error { return nil },
			func(tr *Transcript) error {
				if tr.ID == last {
					runtime.GC()
					runtime.ReadMemStats(&m)
					at = m.HeapAlloc
				}
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		runtime.KeepAlive(in)
		return at - min(at, before)
	}
	small, large := held(10000), held(30000)
	if per := (large - min(large, small)) / 20000; per > 8 {
		t.Errorf("reading holds %d B a conversation, want at most 8", per)
	} else {
		t.Logf("reading holds %d B a conversation (%d B for 10,000)", per, small)
	}
}
