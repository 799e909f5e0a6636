package conflicts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// chatTurns generates n chat turns from a fixed seed: facts about people,
// places and tools stated, denied or asked about, mixed with filler, so
// that some turns contradict earlier ones and most share only a topic.
func chatTurns(n int) []string {
	texts, _ := chatTurnsTruth(n)
	return texts
}

// fact is what a generated sentence states (pos) or denies (!pos).
type fact struct {
	key string
	pos bool
}

// chatTurnsTruth is chatTurns with the facts each turn states or denies,
// so that the conflicts are known independently of the rules.
func chatTurnsTruth(n int) ([]string, [][]fact) {
	rng := rand.New(rand.NewPCG(42, 7))
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	// 400 people and 60 cities, so that a given fact recurs now and then
	// and most turns share only a topic.
	var people []string
	for _, a := range []string{"Al", "Be", "Ca", "Da", "El", "Fa", "Gi", "Ha", "Io", "Ja", "Ko", "Lu", "Ma", "Ni", "Ol", "Pe", "Ra", "Sa", "Ta", "Vi"} {
		for _, z := range []string{"na", "ro", "lie", "ssa", "ko", "rin", "ton", "mi", "dar", "vel", "ssi", "ya", "ren", "bo", "lan", "dre", "xa", "mu", "tor", "ke"} {
			people = append(people, a+z)
		}
	}
	var cities []string
	for _, c := range []string{"Boston", "Denver", "Austin", "Seattle", "Chicago", "Portland", "Miami", "Dallas",
		"Phoenix", "Atlanta", "Toronto", "Berlin", "Paris", "Lisbon", "Madrid", "Oslo", "Dublin", "Vienna",
		"Prague", "Warsaw", "Tokyo", "Osaka", "Seoul", "Lima", "Quito", "Cairo", "Nairobi", "Sydney", "Perth", "Hobart"} {
		cities = append(cities, c)
	}
	cities = append(cities, "Bergen", "Leeds", "Bristol", "Cardiff", "Galway", "Cork", "Lyon", "Nantes",
		"Turin", "Naples", "Porto", "Seville", "Bilbao", "Utrecht", "Ghent", "Bruges", "Basel", "Graz",
		"Krakow", "Gdansk", "Riga", "Tallinn", "Vilnius", "Kyoto", "Busan", "Cusco", "Recife", "Durban", "Accra", "Lagos")
	tools := []string{"Postgres", "Redis", "Kafka", "Jenkins", "Bazel", "Docker", "Terraform", "Nginx",
		"Grafana", "Sentry", "Slack", "Jira", "Vault", "Consul", "Envoy", "Spark", "Flink", "Airflow", "dbt", "Helm"}
	things := []string{"a car", "a dog", "a bike", "a boat", "two cats", "a garden", "a piano", "a tent"}
	fillers := []string{"Thanks, that helps.", "Let me check the logs.", "Sounds good!", "Can you say more?",
		"I'll look into it tomorrow.", "Great, see you then.", "Here is the output you asked for.",
		"That makes sense to me.", "Interesting point about the budget.", "Hold on a second."}
	var facts []fact
	say := func(key string, pos bool, text string) string {
		facts = append(facts, fact{key, pos})
		return text
	}
	sentence := func() string {
		p := pick(people)
		switch rng.IntN(8) {
		case 0:
			c := pick(cities)
			switch rng.IntN(5) {
			case 0:
				return say("live "+p+" "+c, false, p+" doesn't live in "+c+".")
			case 1:
				return say("live "+p+" "+c, false, p+" no longer lives in "+c+".")
			case 2:
				return "Does " + p + " live in " + c + "?"
			default:
				return say("live "+p+" "+c, true, p+" lives in "+c+".")
			}
		case 1:
			tl := pick(tools)
			svc := pick([]string{"billing", "search", "checkout", "reporting", "auth"}) + " " + pick([]string{"api", "worker", "cron", "gateway", "store"})
			switch rng.IntN(5) {
			case 0:
				return say("use "+svc+" "+tl, false, "The "+svc+" service doesn't use "+tl+".")
			case 1:
				return "If the " + svc + " service doesn't use " + tl + ", we should add it."
			default:
				return say("use "+svc+" "+tl, true, "The "+svc+" service uses "+tl+" in production.")
			}
		case 2:
			th := pick(things)
			if rng.IntN(3) == 0 {
				return say("have "+p+" "+th, false, p+" doesn't have "+th+".")
			}
			return say("have "+p+" "+th, true, p+" has "+th+".")
		case 3:
			d := pick([]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"})
			if rng.IntN(4) == 0 {
				tl := strings.ToLower(pick(tools))
				return say("review "+p+" "+tl+" "+d, false, p+"'s "+tl+" review is not on "+d+".")
			}
			tl := strings.ToLower(pick(tools))
			return say("review "+p+" "+tl+" "+d, true, p+"'s "+tl+" review is on "+d+".")
		case 4:
			if rng.IntN(3) == 0 {
				tl := pick(tools)
				return say("migrate "+p+" "+tl, false, p+" stopped working on the "+tl+" migration.")
			}
			tl := pick(tools)
			return say("migrate "+p+" "+tl, true, p+" is working on the "+tl+" migration, and it is going well.")
		default:
			return pick(fillers)
		}
	}
	out := make([]string, n)
	truth := make([][]fact, n)
	for i := range out {
		var b strings.Builder
		facts = nil
		for k := rng.IntN(4) + 1; k > 0; k-- {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(sentence())
		}
		out[i] = b.String()
		truth[i] = facts
	}
	return out, truth
}

func TestGeneratedTurns(t *testing.T) {
	// The generator knows which turns state and deny the same fact; the
	// rules do not. Precision and recall on 3,000 templated turns.
	texts, truth := chatTurnsTruth(3000)
	type key struct{ s, d int }
	want := map[key]bool{}
	states := map[string][]int{}
	for i, fs := range truth {
		for _, f := range fs {
			if f.pos {
				states[f.key] = append(states[f.key], i)
			}
		}
	}
	for d, fs := range truth {
		for _, f := range fs {
			if f.pos {
				continue
			}
			for _, s := range states[f.key] {
				if s != d {
					want[key{s, d}] = true
				}
			}
		}
	}
	tp, fp := 0, 0
	for _, p := range find(texts, Options{}) {
		if want[key{p.Statement, p.Denial}] {
			tp++
		} else {
			fp++
			if fp <= 5 {
				t.Logf("false alarm: %q / %q", p.StatementSentence, p.DenialSentence)
			}
		}
	}
	precision := float64(tp) / float64(max(1, tp+fp))
	recall := float64(tp) / float64(max(1, len(want)))
	fmt.Printf("generated turns: 3000, conflicting pairs %d, tp=%d fp=%d, precision %.3f, recall %.3f\n",
		len(want), tp, fp, precision, recall)
	if precision < 0.99 || recall < 0.9 {
		t.Errorf("precision %.3f, recall %.3f; want at least 0.99 and 0.9", precision, recall)
	}
}

// allPairs is Find without the index: every statement clause against every
// denial clause. It is the reference the index must agree with.
func allPairs(texts []string, minScore float64) ([]Pair, int) {
	an := newAnalyzer()
	var all []clause
	for ti, text := range texts {
		all = appendClauses(all, an, ti, text, nil)
	}
	type key struct{ s, d int }
	best := map[key]Pair{}
	compared := 0
	for di := range all {
		if !all[di].negative {
			continue
		}
		for si := range all {
			if all[si].negative || all[si].text == all[di].text {
				continue
			}
			compared++
			score, ok := lineUp(&all[si], &all[di])
			if !ok || score < minScore {
				continue
			}
			p := pairOf(texts, an, &all[si], &all[di], score)
			k := key{p.Statement, p.Denial}
			if old, seen := best[k]; !seen || p.Score > old.Score {
				best[k] = p
			}
		}
	}
	out := make([]Pair, 0, len(best))
	for _, p := range best {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Denial != out[j].Denial {
			return out[i].Denial < out[j].Denial
		}
		return out[i].Statement < out[j].Statement
	})
	return out, compared
}

func TestIndexAgreesWithAllPairs(t *testing.T) {
	texts := chatTurns(1500)
	t0 := time.Now()
	got, st := findStats(texts, Options{})
	indexed := time.Since(t0)
	t0 = time.Now()
	want, compared := allPairs(texts, DefaultMinScore)
	quadratic := time.Since(t0)
	if len(got) == 0 {
		t.Fatal("the generated turns hold no conflict; the test would prove nothing")
	}
	// Equal scores may pick different sentences for one pair of texts; the
	// texts, cue-independent score and count must agree.
	if len(got) != len(want) {
		t.Fatalf("index found %d pairs, all-pairs scan %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Statement != w.Statement || g.Denial != w.Denial || g.Score != w.Score {
			t.Fatalf("pair %d: index %+v, all pairs %+v", i, g, w)
		}
	}
	if !reflect.DeepEqual(got[0].Shared, want[0].Shared) {
		t.Errorf("shared words differ: %v / %v", got[0].Shared, want[0].Shared)
	}
	fmt.Printf("1500 turns: %d clauses, %d pairs; index compared %d clause pairs in %v, all-pairs scan %d in %v\n",
		st.Clauses, len(got), st.Compared, indexed.Round(time.Millisecond), compared, quadratic.Round(time.Millisecond))
}

func BenchmarkFind10kTurns(b *testing.B) {
	texts := chatTurns(10000)
	var st Stats
	var n int
	for b.Loop() {
		var pairs []Pair
		pairs, st = findStats(texts, Options{})
		n = len(pairs)
	}
	b.ReportMetric(float64(st.Compared), "compared/op")
	b.ReportMetric(float64(n), "pairs/op")
}

func BenchmarkFind1kTurns(b *testing.B) {
	texts := chatTurns(1000)
	var st Stats
	var n int
	for b.Loop() {
		var pairs []Pair
		pairs, st = findStats(texts, Options{})
		n = len(pairs)
	}
	b.ReportMetric(float64(st.Compared), "compared/op")
	b.ReportMetric(float64(n), "pairs/op")
}

// BenchmarkAllPairs10kTurns is the quadratic scan the index avoids, for
// comparison with BenchmarkFind10kTurns (run it with -benchtime=1x).
func BenchmarkAllPairs10kTurns(b *testing.B) {
	texts := chatTurns(10000)
	var compared int
	for b.Loop() {
		_, compared = allPairs(texts, DefaultMinScore)
	}
	b.ReportMetric(float64(compared), "compared/op")
}

// TestManyPairsBounded: n texts that each state and deny the same thing
// make n·(n−1) pairs of texts (each text denies every other; a text is
// never paired with itself). Find keeps MaxPairs of them and counts the
// rest, and what it allocates does not grow with the pairs: before it
// streamed, 1,000 such texts held a million pairs (2.4 GB in the command).
func TestManyPairsBounded(t *testing.T) {
	const n = 1000
	texts := make([]string, n)
	for i := range texts {
		texts[i] = "I live in Boston. I no longer live in Boston."
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	pairs, st, err := Find(context.Background(), texts, Options{MaxPairs: 5})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if want := n * (n - 1); st.Found != want || st.Cut != want-5 || len(pairs) != 5 {
		t.Fatalf("found %d, cut %d, kept %d; want %d, %d, 5", st.Found, st.Cut, len(pairs), want, want-5)
	}
	// The first denial is text 0; it denies texts 1..5 first.
	for i, p := range pairs {
		if p.Denial != 0 || p.Statement != i+1 {
			t.Errorf("pair %d: %d denies %d, want 0 denies %d", i, p.Denial, p.Statement, i+1)
		}
	}
	// The texts' clauses take well under 1 MB; one denial's pairs are at
	// most n small records. 16 MB leaves room for the runtime.
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("Find allocated %d MB for %d pairs found, want under 16 MB", got>>20, st.Found)
	}
}
