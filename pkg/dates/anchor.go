package dates

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// AnchorFormats lists, by example, the session timestamps [ParseAnchor]
// reads. Error messages quote it.
var AnchorFormats = []string{
	"2023-05-20",
	"2023-05-20T02:21:00+02:00",
	"2023-05-20 02:21:00",
	"20230520",
	"2023/05/20 (Sat) 02:21",
	"1:56 pm on 8 May, 2023",
	"May 8, 2023",
	"8 May 2023",
	"Mon, 08 May 2023 13:56:00 +0000",
	"Mon May  8 13:56:00 UTC 2023",
	"Mon May 08 2023 13:56:00 GMT+0000 (Coordinated Universal Time)",
	"1683554160 (Unix seconds)",
	"1683554160000 (Unix milliseconds)",
}

// AnchorError is the error [ParseAnchor] returns: the input, and why it is
// not a date.
type AnchorError struct {
	Input  string
	Reason string
}

func (e *AnchorError) Error() string {
	quoted := make([]string, len(AnchorFormats))
	for i, f := range AnchorFormats {
		quoted[i] = strconv.Quote(f)
	}
	return fmt.Sprintf("%q: %s; accepted formats: %s", e.Input, e.Reason, strings.Join(quoted, ", "))
}

// Pieces of the anchor patterns. Names: y year, mo month number, mon month
// name, d day, wd weekday name, h hour, mi minute, s second, ap am/pm,
// z zone. A piece that occurs twice (a time before and after the date) is
// read from whichever occurrence matched.
const (
	reWeekday = `(?P<wd>monday|mon|tuesday|tues|tue|wednesday|wed|thursday|thurs|thu|friday|fri|saturday|sat|sunday|sun)\.?`
	reMonth   = `(?P<mon>january|jan|february|feb|march|mar|april|apr|may|june|jun|july|jul|august|aug|september|sept|sep|october|oct|november|nov|december|dec)\.?`
	reZone    = `(?:(?P<z>z|(?:utc|gmt)?[+-]\d{2}(?::?\d{2})?|[a-z]{3,5})(?: \([a-z .]+\))?)`
	reTime    = `(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:[.,]\d{1,9})?)?(?: ?(?P<ap>[ap])\.?m\.?)?(?: ?` + reZone + `)?`
	reOrdinal = `(?:st|nd|rd|th)?`
)

// anchorPatterns are tried in order on the input, lowercased, with white
// space runs made single spaces. They are compiled on first use (3 ms),
// not at start-up: most commands never read a date.
var anchorPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		// ISO 8601 / RFC 3339, date with optional time and zone.
		regexp.MustCompile(`^(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})(?:[t ]` + reTime + `)?$`),
		// ISO 8601 basic date.
		regexp.MustCompile(`^(?P<y>\d{4})(?P<mo>\d{2})(?P<d>\d{2})$`),
		// 2023/05/20 (Sat) 02:21, as long-memory chat datasets write it.
		regexp.MustCompile(`^(?P<y>\d{4})/(?P<mo>\d{1,2})/(?P<d>\d{1,2})(?: ?\(` + reWeekday + `\))?(?: ` + reTime + `)?$`),
		// 8 May 2023, 1:56 pm on 8 May, 2023, Mon, 08 May 2023 13:56:00 +0000.
		regexp.MustCompile(`^(?:` + reTime + ` on )?(?:` + reWeekday + `,? )?(?P<d>\d{1,2})` + reOrdinal + ` (?:of )?` + reMonth + `,? (?P<y>\d{4})(?:,? (?:at )?` + reTime + `)?$`),
		// May 8, 2023, Monday, May 8th 2023 at 1:56 PM.
		regexp.MustCompile(`^(?:` + reTime + ` on )?(?:` + reWeekday + `,? )?` + reMonth + ` (?P<d>\d{1,2})` + reOrdinal + `,? (?P<y>\d{4})(?:,? (?:at )?` + reTime + `)?$`),
		// Mon May 8 13:56:00 UTC 2023, as date(1) and ctime write it.
		regexp.MustCompile(`^(?:` + reWeekday + ` )?` + reMonth + ` (?P<d>\d{1,2}) ` + reTime + ` (?P<y>\d{4})$`),
	}
})

var unixPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?\d{1,16}(?:\.\d{1,9})?$`) })

// ParseAnchor returns the calendar day a session timestamp names, in the
// timestamp's own offset: 2023-05-20T23:30:00-07:00 is 20 May, not the
// 21 May it is in UTC. Unix seconds and milliseconds, which carry no
// offset, are read in UTC. The formats are those of [AnchorFormats]; month
// and weekday names may be full or short and in any letter case. A weekday
// that does not match the date is an error, as is a day the month does not
// have or a time such as 25:00.
func ParseAnchor(s string) (Date, error) {
	norm := strings.ToLower(strings.Join(strings.Fields(s), " "))
	if norm == "" {
		return Date{}, &AnchorError{Input: s, Reason: "empty timestamp"}
	}
	for _, re := range anchorPatterns() {
		m := re.FindStringSubmatch(norm)
		if m == nil {
			continue
		}
		get := func(name string) string {
			for i, n := range re.SubexpNames() {
				if n == name && m[i] != "" {
					return m[i]
				}
			}
			return ""
		}
		d, err := anchorDate(get)
		if err != nil {
			return Date{}, &AnchorError{Input: s, Reason: err.Error()}
		}
		return d, nil
	}
	if unixPattern().MatchString(norm) {
		if whole := strings.TrimPrefix(strings.SplitN(norm, ".", 2)[0], "-"); len(whole) < 9 {
			return Date{}, &AnchorError{Input: s, Reason: "too short for Unix time (9 digits or more: 1973 and later)"}
		}
		d, err := ParseUnix(norm)
		if err != nil {
			return Date{}, &AnchorError{Input: s, Reason: err.Error()}
		}
		return d, nil
	}
	return Date{}, &AnchorError{Input: s, Reason: "not a timestamp in any accepted format"}
}

// anchorDate checks the matched pieces and returns the date they name.
func anchorDate(get func(string) string) (Date, error) {
	y, _ := strconv.Atoi(get("y"))
	day, _ := strconv.Atoi(get("d"))
	var mo time.Month
	if name := get("mon"); name != "" {
		mo, _ = monthName(name)
	} else {
		n, _ := strconv.Atoi(get("mo"))
		mo = time.Month(n)
	}
	d, err := NewDate(y, mo, day)
	if err != nil {
		return Date{}, err
	}
	if wd := get("wd"); wd != "" {
		want, _ := weekdayName(strings.TrimSuffix(wd, "."))
		if got := d.Weekday(); got != want {
			return Date{}, fmt.Errorf("%s is a %s, not a %s", d, got, want)
		}
	}
	if h := get("h"); h != "" {
		hour, _ := strconv.Atoi(h)
		minute, _ := strconv.Atoi(get("mi"))
		sec, _ := strconv.Atoi(get("s"))
		if ap := get("ap"); ap != "" {
			if hour < 1 || hour > 12 {
				return Date{}, fmt.Errorf("hour %d is out of range 1-12 for am/pm", hour)
			}
		} else if hour > 23 {
			return Date{}, fmt.Errorf("hour %d is out of range 0-23", hour)
		}
		if minute > 59 {
			return Date{}, fmt.Errorf("minute %d is out of range 0-59", minute)
		}
		if sec > 60 {
			return Date{}, fmt.Errorf("second %d is out of range 0-60", sec)
		}
		if z := strings.TrimLeft(get("z"), "utcgm"); len(z) >= 3 && (z[0] == '+' || z[0] == '-') {
			digits := strings.ReplaceAll(z[1:], ":", "")
			zh, _ := strconv.Atoi(digits[:2])
			zm := 0
			if len(digits) == 4 {
				zm, _ = strconv.Atoi(digits[2:])
			}
			if zh > 23 || zm > 59 {
				return Date{}, fmt.Errorf("zone offset %s is out of range", z)
			}
		}
	}
	return d, nil
}

// ParseUnix reads Unix time, seconds or milliseconds, and returns its day
// in UTC. A whole number of 1e11 or more (a date past the year 5138 in
// seconds) is read as milliseconds; a fraction is read as seconds.
func ParseUnix(s string) (Date, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !unixPattern().MatchString(s) {
		return Date{}, fmt.Errorf("%q is not a Unix time", s)
	}
	sec := math.Floor(f)
	if !strings.Contains(s, ".") && math.Abs(f) >= 1e11 {
		sec = math.Floor(f / 1000)
	}
	// Years 1 to 9999 lie within these bounds.
	const lo, hi = -62135596800, 253402300799
	if sec < lo || sec > hi {
		return Date{}, fmt.Errorf("Unix time %s is outside the years 1-9999", s)
	}
	return DateOf(time.Unix(int64(sec), 0).UTC()), nil
}

// monthName reads a month name, full or short ("sept" too), any case.
func monthName(s string) (time.Month, bool) {
	s = strings.TrimSuffix(s, ".")
	if len(s) < 3 || len(s) > 9 {
		return 0, false
	}
	if strings.EqualFold(s, "sept") {
		return time.September, true
	}
	for m := time.January; m <= time.December; m++ {
		full := m.String()
		if strings.EqualFold(s, full) || strings.EqualFold(s, full[:3]) {
			return m, true
		}
	}
	return 0, false
}

// weekdayName reads a weekday name, full or short ("tues", "thurs" too),
// any case.
func weekdayName(s string) (time.Weekday, bool) {
	s = strings.TrimSuffix(s, ".")
	if len(s) < 3 || len(s) > 9 {
		return 0, false
	}
	switch {
	case strings.EqualFold(s, "tues"):
		return time.Tuesday, true
	case strings.EqualFold(s, "thurs"):
		return time.Thursday, true
	}
	for d := time.Sunday; d <= time.Saturday; d++ {
		full := d.String()
		if strings.EqualFold(s, full) || strings.EqualFold(s, full[:3]) {
			return d, true
		}
	}
	return 0, false
}
