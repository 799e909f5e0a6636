package live_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// equivSpecs are the strategies the equivalence is proved for: every
// built-in and every edit, alone and combined, with small settings so
// that the samples make them act. cheapest is left out: it plans the
// whole session with hindsight (it reads every later call), so no live
// context can be it.
var equivSpecs = []string{
	"full", "windowed", "windowed:chars=4000", "summarizing",
	"summarizing:high=2000:low=2000", "turn", "sliding",
	"sliding:chars=3000", "budget:tokens=3000",
	"clear", "clear:trigger=2000:keep=1", "clear:trigger=1000:at-least=500:inputs",
	"mask", "mask:keep=2", "limit:bytes=500", "clear:auto", "clear:auto:inputs",
	"windowed:chars=40000+clear", "windowed:chars=4000+clear:trigger=1000",
	"summarizing:high=2000+mask:keep=2", "full+mask:keep=1+limit:bytes=300",
	"budget:tokens=3000+clear:trigger=500",
}

// samples reads every transcript with messages under testdata.
func samples(t testing.TB) map[string]*transcript.Transcript {
	t.Helper()
	out := map[string]*transcript.Transcript{}
	for _, dir := range []string{"../../testdata/agent", "../../testdata/transcripts", "../../testdata/replay"} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".har")) {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			ts, err := transcript.Read(f, filepath.Base(p), "")
			if err != nil {
				return nil // not a transcript (a README's data, a broken sample)
			}
			for k, tr := range ts {
				if len(tr.Messages) > 0 {
					name := p
					if len(ts) > 1 {
						name += "#" + tr.ID
						if tr.ID == "" {
							name += string(rune('0' + k))
						}
					}
					out[name] = tr
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 30 {
		t.Fatalf("only %d samples", len(out))
	}
	return out
}

// replies lists the transcript index of each call's reply, as Replay
// counts calls: before each assistant reply that is not meta, assistant
// messages sharing a non-empty Call being one.
func replies(tr *transcript.Transcript) []int {
	var out []int
	prev := ""
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if m.Role == transcript.RoleAssistant && !m.Meta {
			if m.Call == "" || m.Call != prev {
				out = append(out, i)
			}
			prev = m.Call
		}
	}
	return out
}

func equivOptions() window.Options {
	o := window.DefaultOptions()
	o.Budget = engine.Budget{Total: 3000}
	return o
}

// TestReplayIsLiveDriven: for every sample and strategy, the windows a
// live context renders when driven by the transcript are the replay's,
// call by call (indices, and the parts with how each run was sent and
// its size), and each passes window.Check.
func TestReplayIsLiveDriven(t *testing.T) {
	ctx := context.Background()
	all := samples(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range all {
			if !yield(k) {
				return
			}
		}
	})
	o := equivOptions()
	calls := 0
	for _, name := range names {
		tr := all[name]
		sizes, _, err := window.MessageSizes(ctx, tr, window.ReplayOptions{Options: o})
		if err != nil {
			t.Fatal(err)
		}
		reply := replies(tr)
		for _, spec := range equivSpecs {
			s, err := window.Parse(spec, o)
			if err != nil {
				t.Fatal(err)
			}
			res, err := window.Replay(ctx, tr, []window.Strategy{s}, window.ReplayOptions{Options: o, Indices: true})
			if err != nil {
				t.Fatalf("%s %s: replay: %v", name, spec, err)
			}
			want := res[0].Calls
			c, err := live.NewSpec(spec, live.Config{Options: o})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			err = live.Drive(ctx, tr, c, live.DriveOptions{Sizes: sizes}, func(s *live.Snapshot) error {
				if n >= len(want) {
					t.Errorf("%s %s: call %d live, %d replayed", name, spec, n+1, len(want))
					return nil
				}
				w := want[n]
				if !slices.Equal(s.Window, w.Messages) {
					t.Errorf("%s %s call %d: live window %v, replay %v", name, spec, n+1, s.Window, w.Messages)
				}
				if !slices.Equal(s.Parts, w.Parts) {
					t.Errorf("%s %s call %d: live parts %v, replay %v", name, spec, n+1, s.Parts, w.Parts)
				}
				if err := window.Check(tr, reply[n], s.Window, res[0].Summarized(n+1)); err != nil {
					t.Errorf("%s %s call %d: %v", name, spec, n+1, err)
				}
				n++
				return nil
			})
			if err != nil {
				t.Fatalf("%s %s: %v", name, spec, err)
			}
			if n != len(want) {
				t.Errorf("%s %s: %d calls live, %d replayed", name, spec, n, len(want))
			}
			calls += n
		}
	}
	t.Logf("%d samples × %d strategies, %d calls", len(names), len(equivSpecs), calls)
}

// TestContextsConcurrent runs a context per goroutine, all under one
// strategy value, each driven by its own sample (go test -race checks
// they share nothing they write).
func TestContextsConcurrent(t *testing.T) {
	all := samples(t)
	o := equivOptions()
	s, err := window.Parse("summarizing:high=2000+clear:auto", o)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for name, tr := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := live.New(s, live.Config{Options: o})
			if err != nil {
				t.Error(err)
				return
			}
			if err := live.Drive(context.Background(), tr, c, live.DriveOptions{}, func(*live.Snapshot) error { return nil }); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}()
	}
	wg.Wait()
}
