package prose

import (
	"fmt"
	"strconv"
	"strings"
)

// Unpriced is the line a table writes under a cost that leaves out
// calls of models without prices, models named in the order given:
//
//	unpriced: 6 calls, 66116 tokens of "mystery-1": not in the cost
func Unpriced(calls, tokens int, models []string) string {
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = strconv.Quote(m)
	}
	return fmt.Sprintf("unpriced: %s, %d tokens of %s: not in the cost\n",
		Plural(calls, "call"), tokens, strings.Join(names, ", "))
}
