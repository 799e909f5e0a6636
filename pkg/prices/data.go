package prices

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// MaxPrice is the largest price per million tokens harpe accepts from a
// data file or harpe.yaml: ten times the dearest figure in the snapshot
// is far below it, and it keeps a session's cost finite.
const MaxPrice = 1e5

// DB is a genai-prices database: providers, each with its models and
// their prices. Its zero value knows no model.
type DB struct {
	// Source says where the data came from: "genai-prices 0.1.8
	// (2026-09-23)" for the embedded snapshot, the file's name for
	// another.
	Source    string
	providers []*provider
}

type provider struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	PricingURLs   []string `json:"pricing_urls"`
	ModelMatch    *Match   `json:"model_match"`
	ProviderMatch *Match   `json:"provider_match"`
	Fallback      []string `json:"fallback_model_providers"`
	Models        []*model `json:"models"`
}

type model struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Match         *Match          `json:"match"`
	ContextWindow int             `json:"context_window"`
	RawPrices     json.RawMessage `json:"prices"`

	prices []conditional // by position in the data
}

// conditional is a price set and the constraint that chooses it: from a
// start date on, or during a time of day (UTC seconds [from, to), to <
// from wrapping midnight); neither: always.
type conditional struct {
	start         time.Time
	timeOfDay     bool
	fromSec, toSc float64
	p             modelPrice
}

// price is one figure per million tokens, with tiers: above Start input
// tokens (all input, cache reads and writes included) the whole call is
// billed at the tier's price.
type price struct {
	set   bool
	base  float64
	tiers []Tier
}

// Tier is a price that applies to a call whose input exceeds Start tokens.
type Tier struct {
	Start int     `json:"start"`
	Price float64 `json:"price"`
}

func (p price) at(input int) float64 {
	v := p.base
	for _, t := range p.tiers {
		if input > t.Start {
			v = t.Price
		}
	}
	return v
}

// modelPrice is the token prices of one price set.
type modelPrice struct {
	input, cacheRead, cacheWrite, cacheWrite1h, output price
}

// the price keys harpe uses (per million tokens).
var priceKeys = []string{"input_mtok", "cache_read_mtok", "cache_write_mtok", "cache_write_1h_mtok", "output_mtok"}

// MaxDepth bounds how deep the arrays and objects of price data nest
// (harpe's own limit, chosen 2026-12-06; genai-prices' data.json nests 10
// deep, match rules of or and and included).
const MaxDepth = 64

// Load reads a genai-prices data file (data.json: a JSON array of
// providers). source names it in [DB.Source]. A price that is negative,
// above [MaxPrice] or not a number, a constraint or a tier it cannot read
// is an error naming the provider and model; data nested more than
// [MaxDepth] deep is an error naming the line and column.
func Load(data []byte, source string) (*DB, error) {
	var ps []*provider
	if off := jsonl.DeeperThan(data, MaxDepth); off >= 0 {
		// Match rules nest (or, and), each level decoded on its own:
		// 4,990 levels (45 KB) took 350 MB.
		line := bytes.Count(data[:off], []byte("\n")) + 1
		col := off - bytes.LastIndexByte(data[:off], '\n')
		return nil, fmt.Errorf("%s:%d:%d: nested more than %d levels deep, the limit for price data (genai-prices' is %d)", source, line, col, MaxDepth, 10)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&ps); err != nil {
		// Syntax and type errors carry a byte offset: say where it is.
		var off int64
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off = se.Offset
		case errors.As(err, &te):
			off = te.Offset
		}
		if off > 0 && off <= int64(len(data)) {
			// Offset counts the bytes read, the bad one included.
			off--
			before := data[:off]
			line := bytes.Count(before, []byte("\n")) + 1
			col := off - int64(bytes.LastIndexByte(before, '\n'))
			what := err.Error()
			if te != nil {
				// Not Go's type names: what stands there.
				what = "a JSON " + te.Value + " where the format has something else"
				if te.Field != "" {
					what += " (" + te.Field + ")"
				}
			}
			return nil, fmt.Errorf("%s:%d:%d: want a JSON array of providers (genai-prices data.json): %s (byte offset %d)", source, line, col, what, off)
		}
		return nil, fmt.Errorf("%s: want a JSON array of providers (genai-prices data.json): %w", source, err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("%s: no providers", source)
	}
	for _, p := range ps {
		if p == nil || p.ID == "" {
			return nil, fmt.Errorf("%s: a provider without an id", source)
		}
		p.ID = strings.ToLower(p.ID)
		for _, m := range p.Models {
			if m == nil || m.ID == "" || m.Match == nil {
				return nil, fmt.Errorf("%s: provider %s: a model without an id or a match rule", source, p.ID)
			}
			var err error
			if m.prices, err = parsePrices(m.RawPrices); err != nil {
				return nil, fmt.Errorf("%s: provider %s model %s: %w", source, p.ID, m.ID, err)
			}
			m.RawPrices = nil
		}
	}
	return &DB{Source: source, providers: ps}, nil
}

// parsePrices reads a model's prices: one price set, or a list of sets
// each with an optional constraint.
func parsePrices(raw json.RawMessage) ([]conditional, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		p, err := parseSet(raw)
		return []conditional{{p: p}}, err
	}
	var list []struct {
		Constraint map[string]string `json:"constraint"`
		Prices     json.RawMessage   `json:"prices"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("prices: %w", err)
	}
	if len(list) == 0 {
		return nil, errors.New("prices: an empty list")
	}
	out := make([]conditional, 0, len(list))
	for i, c := range list {
		var cond conditional
		var err error
		if cond.p, err = parseSet(c.Prices); err != nil {
			return nil, fmt.Errorf("prices[%d]: %w", i, err)
		}
		if err := cond.constrain(c.Constraint); err != nil {
			return nil, fmt.Errorf("prices[%d]: %w", i, err)
		}
		out = append(out, cond)
	}
	return out, nil
}

func (c *conditional) constrain(k map[string]string) error {
	if k == nil {
		return nil
	}
	typ := k["type"]
	switch {
	case (typ == "" || typ == "start_date") && k["start_date"] != "" && len(k) <= 2:
		t, err := time.Parse(time.DateOnly, k["start_date"])
		if err != nil {
			return fmt.Errorf("constraint start_date %q: want YYYY-MM-DD", k["start_date"])
		}
		c.start = t
		return nil
	case (typ == "" || typ == "time_of_date") && k["start_time"] != "" && k["end_time"] != "" && len(k) <= 3:
		var err1, err2 error
		c.fromSec, err1 = secondsOfDay(k["start_time"])
		c.toSc, err2 = secondsOfDay(k["end_time"])
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		c.timeOfDay = true
		return nil
	}
	return fmt.Errorf("constraint %v: want a start_date or a start_time and end_time", k)
}

var clock = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$`)
})

// secondsOfDay reads "HH:MM:SS[.frac](Z|±HH:MM)" as UTC seconds of the day.
func secondsOfDay(s string) (float64, error) {
	m := clock().FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("time of day %q: want HH:MM:SS and Z or an offset", s)
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	sec, _ := strconv.Atoi(m[3])
	oh, _ := strconv.Atoi(m[7])
	om, _ := strconv.Atoi(m[8])
	if h > 23 || mi > 59 || sec > 59 || oh > 23 || om > 59 {
		return 0, fmt.Errorf("time of day %q: out of range", s)
	}
	v := float64(h*3600 + mi*60 + sec)
	if m[4] != "" {
		f, _ := strconv.ParseFloat("0"+m[4], 64)
		v += f
	}
	off := float64((oh*60 + om) * 60)
	if m[6] == "-" {
		off = -off
	}
	return math.Mod(v-off+86400, 86400), nil
}

// parseSet reads one price set: each key harpe uses is a number or
// {"base": n, "tiers": [{"start": n, "price": n}]}; other keys (audio,
// images, per-request fees) are left out.
func parseSet(raw json.RawMessage) (modelPrice, error) {
	var set map[string]json.RawMessage
	if err := json.Unmarshal(raw, &set); err != nil {
		return modelPrice{}, fmt.Errorf("prices: %w", err)
	}
	var mp modelPrice
	dst := []*price{&mp.input, &mp.cacheRead, &mp.cacheWrite, &mp.cacheWrite1h, &mp.output}
	for i, key := range priceKeys {
		v, ok := set[key]
		if !ok || string(v) == "null" {
			continue
		}
		p, err := parsePrice(v)
		if err != nil {
			return modelPrice{}, fmt.Errorf("%s: %w", key, err)
		}
		*dst[i] = p
	}
	return mp, nil
}

func parsePrice(raw json.RawMessage) (price, error) {
	var n float64
	if err := json.Unmarshal(raw, &n); err == nil {
		return price{set: true, base: n}, checkPrice(n)
	}
	var t struct {
		Base  *float64 `json:"base"`
		Tiers []Tier   `json:"tiers"`
	}
	if err := json.Unmarshal(raw, &t); err != nil || t.Base == nil {
		return price{}, fmt.Errorf("want a number or {base, tiers}, got %.40s", raw)
	}
	if err := checkPrice(*t.Base); err != nil {
		return price{}, err
	}
	for _, x := range t.Tiers {
		if x.Start < 0 {
			return price{}, fmt.Errorf("tier start %d: want a whole number ≥ 0", x.Start)
		}
		if err := checkPrice(x.Price); err != nil {
			return price{}, err
		}
	}
	tiers := slices.Clone(t.Tiers)
	slices.SortStableFunc(tiers, func(a, b Tier) int { return a.Start - b.Start })
	return price{set: true, base: *t.Base, tiers: tiers}, nil
}

// checkPrice rejects a price that is not finite, negative or above
// [MaxPrice] (US$ per million tokens).
func checkPrice(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > MaxPrice {
		return &PriceError{Value: v}
	}
	return nil
}

// PriceError is a price harpe refuses: not finite, negative or above
// [MaxPrice].
type PriceError struct{ Value float64 }

func (e *PriceError) Error() string {
	return fmt.Sprintf("price %g: want a finite number of US$ per million tokens from 0 to %g", e.Value, float64(MaxPrice))
}
