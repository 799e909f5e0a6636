package conflicts

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// chatTurns generates n chat turns from a fixed seed: facts about people,
// places and tools stated, denied or asked about, mixed with filler, so
// that some turns contradict earlier ones and most share only a topic.
func chatTurns(n int) []string {
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
		cities = append(cities, c, "North "+c)
	}
	tools := []string{"Postgres", "Redis", "Kafka", "Jenkins", "Bazel", "Docker", "Terraform", "Nginx",
		"Grafana", "Sentry", "Slack", "Jira", "Vault", "Consul", "Envoy", "Spark", "Flink", "Airflow", "dbt", "Helm"}
	things := []string{"a car", "a dog", "a bike", "a boat", "two cats", "a garden", "a piano", "a tent"}
	fillers := []string{"Thanks, that helps.", "Let me check the logs.", "Sounds good!", "Can you say more?",
		"I'll look into it tomorrow.", "Great, see you then.", "Here is the output you asked for.",
		"That makes sense to me.", "Interesting point about the budget.", "Hold on a second."}
	fact := func() string {
		p := pick(people)
		switch rng.IntN(8) {
		case 0:
			c := pick(cities)
			switch rng.IntN(5) {
			case 0:
				return p + " doesn't live in " + c + "."
			case 1:
				return p + " no longer lives in " + c + "."
			case 2:
				return "Does " + p + " live in " + c + "?"
			default:
				return p + " lives in " + c + "."
			}
		case 1:
			tl := pick(tools)
			svc := pick([]string{"billing", "search", "checkout", "reporting", "auth"}) + " " + pick([]string{"api", "worker", "cron", "gateway", "store"})
			switch rng.IntN(5) {
			case 0:
				return "The " + svc + " service doesn't use " + tl + "."
			case 1:
				return "If the " + svc + " service doesn't use " + tl + ", we should add it."
			default:
				return "The " + svc + " service uses " + tl + " in production."
			}
		case 2:
			th := pick(things)
			if rng.IntN(3) == 0 {
				return p + " doesn't have " + th + "."
			}
			return p + " has " + th + "."
		case 3:
			d := pick([]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"})
			if rng.IntN(4) == 0 {
				return p + "'s " + strings.ToLower(pick(tools)) + " review is not on " + d + "."
			}
			return p + "'s " + strings.ToLower(pick(tools)) + " review is on " + d + "."
		case 4:
			if rng.IntN(3) == 0 {
				return p + " stopped working on the " + pick(tools) + " migration."
			}
			return p + " is working on the " + pick(tools) + " migration, and it is going well."
		default:
			return pick(fillers)
		}
	}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := rng.IntN(4) + 1; k > 0; k-- {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(fact())
		}
		out[i] = b.String()
	}
	return out
}

// allPairs is Find without the index: every statement clause against every
// denial clause. It is the reference the index must agree with.
func allPairs(texts []string, minScore float64) ([]Pair, int) {
	an := newAnalyzer()
	var all []clause
	for ti, text := range texts {
		all = appendClauses(all, an, ti, text)
	}
	type key struct{ s, d int }
	best := map[key]Pair{}
	_ = reflect.DeepEqual
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
			p := pairOf(texts, &all[si], &all[di], score)
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
	got, st := FindStats(texts, Options{})
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
		pairs, st = FindStats(texts, Options{})
		n = len(pairs)
	}
	b.ReportMetric(float64(st.Compared), "compared/op")
	b.ReportMetric(float64(n), "pairs/op")
}

func BenchmarkFind1kTurns(b *testing.B) {
	texts := chatTurns(1000)
	for b.Loop() {
		Find(texts, Options{})
	}
}
