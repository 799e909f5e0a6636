package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/pkg/window"
)

// settingDefault is the default of a registered strategy's whole-number
// setting, as window.Settings lists it: a flag that sets it takes its
// default from the registry, the one place it is written.
func settingDefault(strategy, key string) int {
	settings, _ := window.Settings(strategy)
	for _, s := range settings {
		if n, err := strconv.Atoi(s.Default); err == nil && s.Key == key {
			return n
		}
	}
	panic("cmd: no whole-number default for " + strategy + ":" + key)
}

// windowList is --context-window: one limit, or several separated by
// commas ("100000,150000,200000"), each a whole number ≥ 0.
type windowList struct {
	first *int
	all   *[]int
}

func (w windowList) String() string {
	if w.all == nil || len(*w.all) == 0 {
		return "0"
	}
	parts := make([]string, len(*w.all))
	for i, n := range *w.all {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

func (w windowList) Set(s string) error {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("%q is not a whole number of tokens (several: 100000,150000)", strings.TrimSpace(f))
		}
		out = append(out, n)
	}
	*w.all = out
	*w.first = out[0]
	return nil
}

func (windowList) Type() string { return "tokens" }
