package suggest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ValueProblem says what is wrong with value s for a flag of type typ
// (pflag's type names: "int", "float64", "bool", "duration", …), in the
// user's terms rather than strconv's: `"abc" is not a whole number`.
// cause is the parse error.
func ValueProblem(typ, s string, cause error) string {
	var ne *strconv.NumError
	outOfRange := errors.As(cause, &ne) && errors.Is(ne.Err, strconv.ErrRange)
	switch typ {
	case "int", "int64", "int32", "uint", "uint64":
		if outOfRange {
			return fmt.Sprintf("%q is too large", s)
		}
		return fmt.Sprintf("%q is not a whole number", s)
	case "float64", "float32":
		if outOfRange {
			return fmt.Sprintf("%q is out of range", s)
		}
		return fmt.Sprintf("%q is not a number", s)
	case "bool":
		return fmt.Sprintf("%q is not true or false", s)
	case "duration":
		return fmt.Sprintf("%q is not a duration (such as 30s or 2m)", s)
	}
	if ne != nil {
		return fmt.Sprintf("%q: %v", s, ne.Err)
	}
	return fmt.Sprintf("%q: %v", s, cause)
}

// Command puts cobra's unknown-command message on one line, with its
// suggestions as a did-you-mean: `unknown command "synhtesize" for
// "harpe"; did you mean synthesize?`. Other messages are returned as they
// are, with ok false.
func Command(msg string) (out string, ok bool) {
	if !strings.HasPrefix(msg, "unknown command ") {
		return msg, false
	}
	head, rest, _ := strings.Cut(msg, "\n")
	var names []string
	if _, list, ok := strings.Cut(rest, "Did you mean this?\n"); ok {
		for _, l := range strings.Split(list, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				names = append(names, l)
			}
		}
	}
	if len(names) == 0 {
		return head, true
	}
	return fmt.Sprintf("%s; did you mean %s?", head, strings.Join(names, " or ")), true
}
