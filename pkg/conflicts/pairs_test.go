package conflicts

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// labelled is one row of testdata/conflicts/pairs.tsv.
type labelled struct {
	line     int
	conflict bool
	category string
	a, b     string
}

func readPairs(t *testing.T, path string) []labelled {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 || (cols[0] != "conflict" && cols[0] != "none") {
			t.Fatalf("%s:%d: want label, category, a, b", path, n)
		}
		out = append(out, labelled{n, cols[0] == "conflict", cols[1], cols[2], cols[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// scorePairs runs Find on each labelled pair and returns precision, recall
// and how many conflicts were found the wrong way round,
// logging the confusion per category and every miss.
func scorePairs(t *testing.T, path string) (precision, recall float64, reversed int) {
	rows := readPairs(t, path)
	type counts struct{ tp, fp, fn, tn int }
	per := map[string]*counts{}
	var total counts
	for _, r := range rows {
		pairs := find([]string{r.a, r.b}, Options{})
		got := len(pairs) > 0
		// In the tables, a is the statement and b the denial; between two
		// antonyms, either may be read as the denial.
		if got && r.conflict && r.category != "antonym" && (pairs[0].Statement != 0 || pairs[0].Denial != 1) {
			t.Logf("%s:%d: found, but the other way round [%s] %q / %q", path, r.line, r.category, r.a, r.b)
			reversed++
		}
		c := per[r.category]
		if c == nil {
			c = &counts{}
			per[r.category] = c
		}
		switch {
		case got && r.conflict:
			c.tp++
			total.tp++
		case got && !r.conflict:
			c.fp++
			total.fp++
			t.Logf("%s:%d: false alarm [%s] %q / %q", path, r.line, r.category, r.a, r.b)
		case !got && r.conflict:
			c.fn++
			total.fn++
			t.Logf("%s:%d: missed [%s] %q / %q", path, r.line, r.category, r.a, r.b)
		default:
			c.tn++
			total.tn++
		}
	}
	cats := make([]string, 0, len(per))
	for k := range per {
		cats = append(cats, k)
	}
	sort.Strings(cats)
	for _, k := range cats {
		c := per[k]
		t.Logf("  %-13s tp=%-3d fp=%-3d fn=%-3d tn=%-3d", k, c.tp, c.fp, c.fn, c.tn)
	}
	precision = float64(total.tp) / float64(max(1, total.tp+total.fp))
	recall = float64(total.tp) / float64(max(1, total.tp+total.fn))
	fmt.Printf("%s: %d pairs (%d conflicting), tp=%d fp=%d fn=%d tn=%d, precision %.3f, recall %.3f, reversed %d\n",
		path, len(rows), total.tp+total.fn, total.tp, total.fp, total.fn, total.tn, precision, recall, reversed)
	return precision, recall, reversed
}

// The floors below are set a little under what the rules reached when the
// tables were first run, so a change that loses ground fails.
func TestPairTable(t *testing.T) { checkTable(t, "pairs.tsv", 0.9, 0.9) }

// The held-out set was written with pairs.tsv and never used for tuning.
func TestHeldOut(t *testing.T) { checkTable(t, "heldout.tsv", 0.9, 0.85) }

// The hard set is in a chat register; its recall is honestly lower.
func TestHard(t *testing.T) { checkTable(t, "hard.tsv", 0.9, 0.7) }

func checkTable(t *testing.T, name string, minPrecision, minRecall float64) {
	p, r, rev := scorePairs(t, "../../testdata/conflicts/"+name)
	if p < minPrecision {
		t.Errorf("%s: precision %.3f, want at least %.2f", name, p, minPrecision)
	}
	if r < minRecall {
		t.Errorf("%s: recall %.3f, want at least %.2f", name, r, minRecall)
	}
	if rev > 0 {
		t.Errorf("%s: %d conflicts found the wrong way round, want none", name, rev)
	}
}

// The fresh set was written after the rules were frozen and run once.
func TestFresh(t *testing.T) { checkTable(t, "fresh.tsv", 0.9, 0.8) }

// The second fresh set was written after the last rule change and run once.
func TestFresh2(t *testing.T) { checkTable(t, "fresh2.tsv", 0.9, 0.8) }

// The third fresh set was written after the last rule change and run once.
func TestFresh3(t *testing.T) { checkTable(t, "fresh3.tsv", 0.85, 0.7) }
