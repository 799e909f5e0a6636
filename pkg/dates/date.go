package dates

import (
	"fmt"
	"time"
)

// Date is a calendar day with no time of day and no zone: the proleptic
// Gregorian calendar, years 1 to 9999.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// NewDate returns the date, or an error naming the part that is out of
// range (February 30 is not a date).
func NewDate(year int, month time.Month, day int) (Date, error) {
	if year < 1 || year > 9999 {
		return Date{}, fmt.Errorf("year %d is out of range 1-9999", year)
	}
	if month < time.January || month > time.December {
		return Date{}, fmt.Errorf("month %d is out of range 1-12", int(month))
	}
	if day < 1 || day > daysIn(year, month) {
		return Date{}, fmt.Errorf("day %d is out of range for %s %04d (1-%d)", day, month, year, daysIn(year, month))
	}
	return Date{year, month, day}, nil
}

// DateOf returns the calendar day of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// String writes the date as YYYY-MM-DD.
func (d Date) String() string {
	return string(d.appendTo(make([]byte, 0, 10)))
}

// appendTo appends the date as YYYY-MM-DD to b.
func (d Date) appendTo(b []byte) []byte {
	b = appendDigits(b, d.Year, 4)
	b = append(b, '-')
	b = appendDigits(b, int(d.Month), 2)
	b = append(b, '-')
	return appendDigits(b, d.Day, 2)
}

// appendDigits appends n (≥ 0) in decimal, zero-padded to width digits.
func appendDigits(b []byte, n, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for n > 0 || len(buf)-i < width {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, buf[i:]...)
}

// IsZero reports whether d is the zero Date (not a calendar day).
func (d Date) IsZero() bool { return d == Date{} }

// valid reports whether d is a day of years 1 to 9999.
func (d Date) valid() bool {
	return d.Year >= 1 && d.Year <= 9999 && d.Month >= time.January && d.Month <= time.December &&
		d.Day >= 1 && d.Day <= daysIn(d.Year, d.Month)
}

// time returns midnight UTC of d.
func (d Date) time() time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday { return d.time().Weekday() }

// AddDays returns the date n days after d (before, for negative n).
func (d Date) AddDays(n int) Date { return DateOf(d.time().AddDate(0, 0, n)) }

// AddMonths returns the same day n months after d (before, for negative
// n). A day that the target month does not have is clamped to the month's
// last day: one month before 31 March 2023 is 28 February 2023.
func (d Date) AddMonths(n int) Date {
	m := d.Year*12 + int(d.Month-1) + n
	y, mo := m/12, time.Month(m%12+1)
	if m < 0 {
		y, mo = (m-11)/12, time.Month((m%12+12)%12+1)
	}
	return Date{y, mo, min(d.Day, daysIn(y, mo))}
}

// Before reports whether d is an earlier day than e.
func (d Date) Before(e Date) bool {
	if d.Year != e.Year {
		return d.Year < e.Year
	}
	if d.Month != e.Month {
		return d.Month < e.Month
	}
	return d.Day < e.Day
}

// daysIn returns the number of days of month in year.
func daysIn(year int, month time.Month) int {
	switch month {
	case time.April, time.June, time.September, time.November:
		return 30
	case time.February:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 31
}

// monday returns the Monday of the Monday-to-Sunday week holding d.
func (d Date) monday() Date {
	return d.AddDays(-((int(d.Weekday()) + 6) % 7))
}
