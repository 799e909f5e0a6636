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
