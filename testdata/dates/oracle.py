#!/usr/bin/env python3
"""Reference for pkg/dates tests: computes the expected annotation of each
phrase with Python's datetime and calendar modules, independently of the Go
code, and writes pkg/dates/cases_test.go.

    python3 testdata/dates/oracle.py > pkg/dates/cases_test.go && gofmt -w pkg/dates/cases_test.go

Definitions (SPEC §7 and docs/dates.md): weeks run Monday to Sunday (ISO
weeks); "last weekend" is the Saturday and Sunday of the ISO week before the
said-on day's week; "last <weekday>" is the most recent such day strictly
before; "N months/years ago" keeps the day of the month, clamped to the
month's last day.
"""
import calendar
import datetime as dt
import json

D = dt.date
ONE = dt.timedelta(days=1)


def iso(d):
    return d.isoformat()


def months_back(d, n):
    total = d.year * 12 + (d.month - 1) - n
    y, m0 = divmod(total, 12)
    last = calendar.monthrange(y, m0 + 1)[1]
    return D(y, m0 + 1, min(d.day, last))


def iso_week_monday(d, shift):
    y, w, _ = d.isocalendar()
    return D.fromisocalendar(y, w, 1) + dt.timedelta(weeks=shift)


def week(d, shift):
    mon = iso_week_monday(d, shift)
    return f"{iso(mon)} to {iso(mon + dt.timedelta(days=6))}"


def last_weekend(d):
    mon = iso_week_monday(d, -1)
    return f"{iso(mon + dt.timedelta(days=5))} to {iso(mon + dt.timedelta(days=6))}"


def last_weekday(d, name):
    target = list(calendar.day_name).index(name)  # Monday = 0
    for k in range(1, 8):
        c = d - dt.timedelta(days=k)
        if c.weekday() == target:
            return iso(c)


def month_label(d, shift):
    total = d.year * 12 + (d.month - 1) + shift
    y, m0 = divmod(total, 12)
    return f"{y:04d}-{m0 + 1:02d}"


NUMBERS = [("a", 1), ("an", 1), ("one", 1), ("two", 2), ("three", 3), ("four", 4), ("five", 5),
           ("six", 6), ("seven", 7), ("eight", 8), ("nine", 9), ("ten", 10), ("eleven", 11),
           ("twelve", 12), ("thirteen", 13), ("fourteen", 14), ("fifteen", 15), ("sixteen", 16),
           ("seventeen", 17), ("eighteen", 18), ("nineteen", 19), ("twenty", 20),
           ("twenty-one", 21), ("thirty two", 32), ("a couple of", 2), ("a couple", 2),
           ("couple of", 2), ("1", 1), ("2", 2), ("3", 3), ("10", 10), ("45", 45), ("100", 100)]

TEMPLATES = [
    "{p}",
    "We talked about it {p}.",
    "{P}, she said.",
    "He said \"{p}\" twice",
    "(it was {p})",
    "Really? {P}!",
    "...and {p}; then home",
    "I saw the doctor {p}\nand felt better",
]

SAID_ON = [D(2023, 5, 20), D(2023, 5, 21), D(2023, 5, 22), D(2023, 3, 31), D(2024, 2, 29),
           D(2024, 3, 31), D(2023, 1, 1), D(2023, 1, 2), D(2023, 12, 31), D(2024, 1, 31),
           D(2000, 2, 29), D(2023, 5, 24), D(2023, 5, 19), D(1999, 12, 31)]

rows = []


def add(name, said, text, want):
    rows.append((name, iso(said), text, want))


def phrase_case(family, said, phrase, label, k):
    t = TEMPLATES[k % len(TEMPLATES)]
    cap = phrase[0].upper() + phrase[1:]
    text = t.format(p=phrase, P=cap)
    shown = cap if "{P}" in t else phrase
    want = text.replace(shown, f"{shown} ({label})", 1)
    add(f"{family}/{iso(said)}/{phrase}", said, text, want)


k = 0
for said in SAID_ON:
    fam = [
        ("today", "today", iso(said)),
        ("tonight", "tonight", iso(said)),
        ("this morning", "this morning", iso(said)),
        ("yesterday", "yesterday", iso(said - ONE)),
        ("last night", "last night", iso(said - ONE)),
        ("day before yesterday", "the day before yesterday", iso(said - 2 * ONE)),
        ("tomorrow", "tomorrow", iso(said + ONE)),
        ("day after tomorrow", "the day after tomorrow", iso(said + 2 * ONE)),
        ("last week", "last week", week(said, -1)),
        ("this week", "this week", week(said, 0)),
        ("next week", "next week", week(said, 1)),
        ("last weekend", "last weekend", last_weekend(said)),
        ("last month", "last month", month_label(said, -1)),
        ("next month", "next month", month_label(said, 1)),
        ("last year", "last year", f"{said.year - 1:04d}"),
        ("next year", "next year", f"{said.year + 1:04d}"),
        ("a month ago", "a month ago", iso(months_back(said, 1))),
        ("a year ago", "a year ago", iso(months_back(said, 12))),
    ]
    for family, phrase, label in fam:
        phrase_case(family, said, phrase, label, k)
        k += 1
    for name in calendar.day_name:
        phrase_case("last weekday", said, f"last {name}", last_weekday(said, name), k)
        k += 1

# Every number form with every unit, said on a few days.
for i, (word, n) in enumerate(NUMBERS):
    said = SAID_ON[i % len(SAID_ON)]
    for unit, f in [("day", lambda d, n: d - dt.timedelta(days=n)),
                    ("week", lambda d, n: d - dt.timedelta(weeks=n)),
                    ("month", lambda d, n: months_back(d, n)),
                    ("year", lambda d, n: months_back(d, 12 * n))]:
        if word == "an":
            continue  # "an" takes no unit of ours ("an hour ago" is not resolved)
        u = unit if n == 1 else unit + "s"
        phrase = f"{word} {u} ago"
        phrase_case(f"{unit}s ago", said, phrase, iso(f(said, n)), k)
        k += 1


# Families added for issue 15, on every said-on day. Definitions: "past N
# units", "last N units" and "previous N units" are the N units that end the
# day before D (first day: D minus N units, clamped like "N months ago");
# "the past week/month/year" the same with N = 1; "<weekday> of last week"
# and its forms the weekday in the ISO week named; "the Nth of last month"
# that day of the month (left alone when the month has no such day);
# "Nth <weekday> of last month" that weekday counted from the month's start
# ("last" from its end); "N Fridays ago" the N-th Friday strictly before D;
# "N days before yesterday" D-1-N, "N days after tomorrow" D+1+N; "the
# week before last" the ISO week two back ("after next": two ahead), "the
# night before last" D-2, "two weekends ago" the weekend of the ISO week two
# back (so "last weekend" is one weekend ago).


def past_span(d, n, unit):
    if unit == "day":
        first = d - dt.timedelta(days=n)
    elif unit == "week":
        first = d - dt.timedelta(weeks=n)
    elif unit == "month":
        first = months_back(d, n)
    else:
        first = months_back(d, 12 * n)
    return f"{iso(first)} to {iso(d - ONE)}"


def week_day(d, shift, name):
    return iso(iso_week_monday(d, shift) + dt.timedelta(days=list(calendar.day_name).index(name)))


def month_first(d, shift):
    total = d.year * 12 + (d.month - 1) + shift
    y, m0 = divmod(total, 12)
    return D(y, m0 + 1, 1)


def nth_of_month(d, shift, n):
    first = month_first(d, shift)
    if n > calendar.monthrange(first.year, first.month)[1]:
        return None
    return iso(first.replace(day=n))


def nth_weekday_of_month(d, shift, name, n):
    first = month_first(d, shift)
    target = list(calendar.day_name).index(name)
    days = [first + dt.timedelta(days=k) for k in range(calendar.monthrange(first.year, first.month)[1])]
    hits = [x for x in days if x.weekday() == target]
    if n == -1:
        return iso(hits[-1])
    return iso(hits[n - 1]) if n <= len(hits) else None


def weekdays_ago(d, name, n):
    target = list(calendar.day_name).index(name)
    found = 0
    for k in range(1, 7 * n + 8):
        c = d - dt.timedelta(days=k)
        if c.weekday() == target:
            found += 1
            if found == n:
                return iso(c)


def case_or_alone(family, said, phrase, label, k):
    if label is None:
        t = TEMPLATES[k % len(TEMPLATES)]
        cap = phrase[0].upper() + phrase[1:]
        text = t.format(p=phrase, P=cap)
        add(f"{family}/{iso(said)}/{phrase}", said, text, text)
    else:
        phrase_case(family, said, phrase, label, k)


ORDINALS = [(1, "1st"), (2, "second"), (3, "3rd"), (15, "15th"), (21, "twenty-first"), (28, "28th"),
            (29, "29th"), (30, "thirtieth"), (31, "31st")]
NTH = [(1, "first"), (2, "second"), (3, "third"), (4, "fourth"), (5, "fifth"), (-1, "last")]
ABBR = [("mon", "Monday"), ("tue", "Tuesday"), ("tues", "Tuesday"), ("wed", "Wednesday"), ("thu", "Thursday"),
        ("thur", "Thursday"), ("thurs", "Thursday"), ("fri", "Friday")]

for j, said in enumerate(SAID_ON):
    fam = [
        ("past week", "the past week", past_span(said, 1, "week")),
        ("past month", "the past month", past_span(said, 1, "month")),
        ("past year", "past year", past_span(said, 1, "year")),
        ("this past week", "this past week", past_span(said, 1, "week")),
        ("previous week", "previous week", week(said, -1)),
        ("previous month", "previous month", month_label(said, -1)),
        ("previous year", "previous year", f"{said.year - 1:04d}"),
        ("current week", "current week", week(said, 0)),
        ("this past weekend", "this past weekend", last_weekend(said)),
        ("last N", "last 3 weeks", past_span(said, 3, "week")),
        ("last N", "last two years", past_span(said, 2, "year")),
        ("last N", "the last two years", past_span(said, 2, "year")),
        ("last N", "the last 10 days", past_span(said, 10, "day")),
        ("last N", "last six months", past_span(said, 6, "month")),
        ("past N", "past 4 days", past_span(said, 4, "day")),
        ("past N", "the past twenty-one days", past_span(said, 21, "day")),
        ("previous N", "previous 3 weeks", past_span(said, 3, "week")),
        ("abbreviation", "last yr", f"{said.year - 1:04d}"),
        ("abbreviation", "last wk", week(said, -1)),
        ("abbreviation", "last mo", month_label(said, -1)),
        ("before yesterday", "3 days before yesterday", iso(said - 4 * ONE)),
        ("before yesterday", "two weeks before yesterday", iso(said - ONE - dt.timedelta(weeks=2))),
        ("before yesterday", "a day before yesterday", iso(said - 2 * ONE)),
        ("after tomorrow", "3 days after tomorrow", iso(said + 4 * ONE)),
        ("after tomorrow", "two days after tomorrow", iso(said + 3 * ONE)),
        ("day word and part of day", "today evening", iso(said)),
        ("day word and part of day", "this night", iso(said)),
        ("day word and part of day", "late last night", iso(said - ONE)),
        ("the Nth of next month", "the 15th of next month", nth_of_month(said, 1, 15)),
        ("the Nth of this month", "the 1st of this month", nth_of_month(said, 0, 1)),
        ("before last", "the week before last", week(said, -2)),
        ("before last", "the weekend before last", f"{iso(iso_week_monday(said, -2) + 5 * ONE)} to {iso(iso_week_monday(said, -2) + 6 * ONE)}"),
        ("before last", "the month before last", month_label(said, -2)),
        ("before last", "the year before last", f"{said.year - 2:04d}"),
        ("before last", "the night before last", iso(said - 2 * ONE)),
        ("after next", "the week after next", week(said, 2)),
        ("after next", "the month after the next", month_label(said, 2)),
        ("weekends ago", "two weekends ago", f"{iso(iso_week_monday(said, -2) + 5 * ONE)} to {iso(iso_week_monday(said, -2) + 6 * ONE)}"),
        ("weekends ago", "3 weekends ago", f"{iso(iso_week_monday(said, -3) + 5 * ONE)} to {iso(iso_week_monday(said, -3) + 6 * ONE)}"),
        ("before now", "a week before now", iso(said - 7 * ONE)),
        ("last evening", "last evening", iso(said - ONE)),
    ]
    for family, phrase, label in fam:
        if phrase == "late last night":
            # the annotation follows "last night"; "late" stays before it
            t = "We talked about it late last night."
            add(f"{family}/{iso(said)}/{phrase}", said, t, t.replace("last night", f"last night ({label})"))
            continue
        phrase_case(family, said, phrase, label, k)
        k += 1
    t = "yesterday at 9:30 we met"
    add(f"day word and time/{iso(said)}/yesterday at 9:30", said, t, t.replace("yesterday", f"yesterday ({iso(said - ONE)})"))
    for name in calendar.day_name:
        phrase_case("this past weekday", said, f"this past {name}", last_weekday(said, name), k)
        k += 1
        phrase_case("previous weekday", said, f"previous {name}", last_weekday(said, name), k)
        k += 1
        phrase_case("weekday of last week", said, f"{name} of last week", week_day(said, -1, name), k)
        k += 1
        phrase_case("weekday next week", said, f"{name} next week", week_day(said, 1, name), k)
        k += 1
        phrase_case("weekday this week", said, f"{name} this week", week_day(said, 0, name), k)
        k += 1
        phrase_case("last week's weekday", said, f"last week's {name}", week_day(said, -1, name), k)
        k += 1
        phrase_case("next week on weekday", said, f"next week on {name}", week_day(said, 1, name), k)
        k += 1
        n = 1 + (j + k) % 5
        word = ["one", "two", "three", "four", "five"][n - 1]
        phrase_case("weekdays ago", said, f"{word} {name}s ago", weekdays_ago(said, name, n), k)
        k += 1
    for short, name in ABBR:
        phrase_case("last short weekday", said, f"last {short}", last_weekday(said, name), k)
        k += 1
    for n, word in ORDINALS:
        case_or_alone("the Nth of last month", said, f"the {word} of last month", nth_of_month(said, -1, n), k)
        k += 1
    name = calendar.day_name[j % 7]
    for n, word in NTH:
        case_or_alone("Nth weekday of last month", said, f"the {word} {name} of last month",
                      nth_weekday_of_month(said, -1, name, n), k)
        k += 1

print("// Code generated by testdata/dates/oracle.py; DO NOT EDIT.")
print("//")
print("// Each expected date was computed by Python's datetime and calendar")
print("// modules (see the script), not by this package.")
print()
print("package dates")
print()
print("var oracleCases = []struct{ name, saidOn, in, want string }{")
for name, said, text, want in rows:
    print(f"\t{{{json.dumps(name)}, {json.dumps(said)}, {json.dumps(text)}, {json.dumps(want)}}},")
print("}")
