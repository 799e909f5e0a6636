#!/usr/bin/env python3
"""Cases drawn from public date-parser test suites, with the dates harpe
must write worked out here by calendar arithmetic (Python's datetime and
calendar modules), not by the Go code. Writes pkg/dates/suite_cases_test.go:

    python3 testdata/dates/suites.py > pkg/dates/suite_cases_test.go && gofmt -w pkg/dates/suite_cases_test.go

Each case records the suite file and the line of its "Input", the day the
text is counted from, and what harpe must do:

  resolve       a phrase that names one day or one span: the annotation
  alone         a phrase that could mean more than one date, a vague one,
                or no relative phrase at all: the text must come back as is
  inside        a known phrase inside a longer expression that shifts it:
                the whole expression resolved (want given), or everything
                left alone (want is None)

Sources, all from github.com/microsoft/Recognizers-Text, Specs/DateTime/
English/ (read through the search tool's stored copy; lines counted from
the files' fixed block layout, the "Input" line of each block):

  DP  = DateParser.json        reference days from each case's Context
  DPP = DatePeriodParser.json  reference days from each case's Context
  DE  = DateExtractor.json     no reference day in the file; harpe's is
                               chosen here (a leap day, 2024-02-29, a
                               Thursday) so the dates differ from DP's

and from github.com/bear/parsedatetime, tests/data/en_US/ (YAML, one
phrase a line; the line of the phrase):

  PS  = simple_offsets.yml     its sourceTime where it has one ("tuesdays":
                               2016-05-31 and 2016-03-01), else "now",
                               taken here as 2023-05-20
  PD  = deltas.yml             its sourceTime (2016-01-01)
  PP  = phrases.yml            its sourceTime ("saturdays": 2016-02-27 and
                               2016-11-19), else 2023-05-20

and from github.com/stanfordnlp/CoreNLP, SUTime's test:

  SU  = itest/src/edu/stanford/nlp/time/SUTimeITest.java, the sentences of
        its test texts (one a line), counted from the day its resolved
        checks use ("20100217"); lines counted by hand in the first 32,000
        characters of the file

What the suite's own answer is does not matter here: harpe's rules
(docs/dates.md) decide which phrases are resolved; the suite supplies the
phrasings. Where harpe's rule differs from the suite's (harpe leaves
"this Friday" alone, the suite resolves it), the case is "alone".
"""
import calendar
import datetime as dt
import json

D = dt.date
ONE = dt.timedelta(days=1)
FILES = {
    "DP": "Recognizers-Text/Specs/DateTime/English/DateParser.json",
    "DPP": "Recognizers-Text/Specs/DateTime/English/DatePeriodParser.json",
    "DE": "Recognizers-Text/Specs/DateTime/English/DateExtractor.json",
    "PS": "parsedatetime/tests/data/en_US/simple_offsets.yml",
    "PD": "parsedatetime/tests/data/en_US/deltas.yml",
    "PP": "parsedatetime/tests/data/en_US/phrases.yml",
    "SU": "CoreNLP/itest/src/edu/stanford/nlp/time/SUTimeITest.java",
}
WD = {name.lower(): i for i, name in enumerate(calendar.day_name)}  # Monday = 0


def iso(d):
    return d.isoformat()


def day(d):
    return iso(d)


def rng(a, b):
    return f"{iso(a)} to {iso(b)}"


def monday(d, shift=0):
    return d - dt.timedelta(days=d.weekday()) + dt.timedelta(weeks=shift)


def week(d, shift):
    m = monday(d, shift)
    return rng(m, m + 6 * ONE)


def week_day(d, shift, name):
    return day(monday(d, shift) + dt.timedelta(days=WD[name]))


def last_wd(d, name):
    for k in range(1, 8):
        c = d - dt.timedelta(days=k)
        if c.weekday() == WD[name]:
            return c


def months_back(d, n):
    total = d.year * 12 + (d.month - 1) - n
    y, m0 = divmod(total, 12)
    return D(y, m0 + 1, min(d.day, calendar.monthrange(y, m0 + 1)[1]))


def month_label(d, shift):
    y, m0 = divmod(d.year * 12 + d.month - 1 + shift, 12)
    return f"{y:04d}-{m0 + 1:02d}"


def month_first(d, shift):
    y, m0 = divmod(d.year * 12 + d.month - 1 + shift, 12)
    return D(y, m0 + 1, 1)


def nth_weekday(d, shift, name, n):
    first = month_first(d, shift)
    days = [first + k * ONE for k in range(calendar.monthrange(first.year, first.month)[1])]
    hits = [x for x in days if x.weekday() == WD[name]]
    return day(hits[n - 1] if n > 0 else hits[-1])


def past(d, n, unit):
    if unit == "day":
        first = d - n * ONE
    elif unit == "week":
        first = d - dt.timedelta(weeks=n)
    elif unit == "month":
        first = months_back(d, n)
    else:
        first = months_back(d, 12 * n)
    return rng(first, d - ONE)


R0 = D(2016, 11, 7)   # DP and DPP: "ReferenceDateTime": "2016-11-07T00:00:00" (a Monday)
R1 = D(2017, 11, 8)   # DPP: 2017-11-08
R2 = D(2017, 11, 14)  # DPP: 2017-11-14
R3 = D(2017, 11, 17)  # DPP: 2017-11-17
R4 = D(2017, 11, 20)  # DPP: 2017-11-20
R5 = D(2017, 9, 27)   # DP: 2017-09-27T17:25:49...
R6 = D(2017, 11, 23)  # DP: 2017-11-23
R7 = D(2016, 11, 14)  # DP: 2016-11-14
R8 = D(2016, 11, 13)  # DPP: 2016-11-13
R9 = D(2017, 12, 18)  # DPP: 2017-12-18
RE = D(2024, 2, 29)   # DE: chosen
RC = D(2017, 9, 1)    # DE: 2017-09-01 (the cases that carry a Context)

# (file, line, text, reference day, kind, [(phrase, label), ...] or None)
C = []


def add(f, line, text, ref, kind, want=None):
    C.append((f, line, text, ref, kind, want))


# --- DateParser.json: one block per 23 lines from line 2; 24 from line 2049.
dp_alone_absolute = [
    "I'll go back on 15", "I'll go back Oct. 2", "I'll go back Oct-2", "I'll go back Oct/2",
    "I'll go back October. 2", "I'll go back January 12, 2016", "I'll go back Monday January 12th, 2016",
    "I'll go back 02/22/2016", "I'll go back 21/04/2016", "I'll go back 21/04/16", "I'll go back 21-04-2016",
    "I'll go back on 4.22", "I'll go back on 4-22", "I'll go back in 4.22", "I'll go back at 4-22",
    "I'll go back on    4/22", "I'll go back on 22/04", "I'll go back     4/22", "I'll go back 22/04",
    "I'll go back 2015/08/12", "I'll go back 08/12,2015", "I'll go back 08/12,15", "I'll go back 1st Jan",
    "I'll go back Jan-1", "I'll go back Wed, 22 of Jan", "I'll go back Jan first",
    "I'll go back May twenty-first", "I'll go back May twenty one", "I'll go back second of Aug.",
    "I'll go back twenty second of June", "I'll go back on Friday", "I'll go back |Friday",
]
for k, t in enumerate(dp_alone_absolute):
    add("DP", 2 + 23 * k, t, R0, "alone")
dp = 2 + 23 * 32  # "I'll go back today"
add("DP", dp, "I'll go back today", R0, "resolve", [("today", day(R0))])
add("DP", dp + 23, "I'll go back tomorrow", R0, "resolve", [("tomorrow", day(R0 + ONE))])
add("DP", dp + 46, "I'll go back yesterday", R0, "resolve", [("yesterday", day(R0 - ONE))])
add("DP", dp + 69, "I'll go back the day before yesterday", R0, "resolve", [("the day before yesterday", day(R0 - 2 * ONE))])
add("DP", dp + 92, "I'll go back the day after tomorrow", R0, "resolve", [("the day after tomorrow", day(R0 + 2 * ONE))])
add("DP", dp + 115, "The day after tomorrow", R0, "resolve", [("The day after tomorrow", day(R0 + 2 * ONE))])
add("DP", dp + 138, "I'll go back the next day", R0, "alone")  # relative to the story, not to the day said
add("DP", dp + 161, "I'll go back next day", R0, "alone")
add("DP", dp + 184, "I'll go back this Friday", R0, "alone")  # SPEC: this/next <weekday> is ambiguous
add("DP", dp + 207, "I'll go back next Sunday", R0, "alone")
add("DP", dp + 230, "I'll go back last Sunday", R0, "resolve", [("last Sunday", day(last_wd(R0, "sunday")))])
add("DP", dp + 253, "I'll go back this week Friday", R0, "inside", [("this week Friday", week_day(R0, 0, "friday"))])
add("DP", dp + 276, "I'll go back next week Sunday", R0, "inside", [("next week Sunday", week_day(R0, 1, "sunday"))])
add("DP", dp + 299, "I'll go back last week Sunday", R0, "inside", [("last week Sunday", week_day(R0, -1, "sunday"))])
add("DP", dp + 322, "I'll go back last day", R0, "alone")
add("DP", dp + 345, "I'll go back the last day", R0, "alone")
add("DP", dp + 368, "I'll go back the day", R0, "alone")
add("DP", dp + 391, "I'll go back 15 June 2016", R0, "alone")
add("DP", dp + 414, "I'll go back the first friday of july", R0, "alone")
add("DP", dp + 437, "I'll go back the first friday in this month", R0, "inside",
    [("the first friday in this month", nth_weekday(R0, 0, "friday", 1))])
add("DP", dp + 460, "I'll go back next week on Friday", R0, "inside", [("next week on Friday", week_day(R0, 1, "friday"))])
add("DP", dp + 483, "I'll go back on Friday next week", R0, "inside", [("Friday next week", week_day(R0, 1, "friday"))])
add("DP", dp + 506, "I'll go back my day", R0, "alone")
add("DP", dp + 529, "I'll go back this day", R0, "alone")  # "to this day" means until now
add("DP", dp + 552, "I'll go back past day", R0, "alone")
add("DP", dp + 575, "I'll go back two weeks from now", R0, "alone")  # a future offset from now
add("DP", dp + 598, "who did I email a month ago", R0, "resolve", [("a month ago", day(months_back(R0, 1)))])
add("DP", dp + 621, "who did I email few month ago", R0, "alone")
add("DP", dp + 644, "who did I email a few day ago", R0, "alone")
for k, t in enumerate(["I went back for the 27", "I went back for the 27th", "I went back for the 27.",
                       "I went back for the 27!", "I went back for the 27 .", "I went back for the 21st",
                       "I went back for the 22nd", "I went back for the second", "I went back for the twenty second",
                       "I went back for the thirty"]):
    add("DP", dp + 667 + 23 * k, t, R0, "alone")  # a day of some month: which month?
for k, t in enumerate(["I went back Thursday the 21st", "I went back Friday the 22nd", "I went back Saturday the 23rd",
                       "I went back Friday the 15th", "I went back Thursday the twenty first",
                       "I went back Friday the twenty second", "I went back Friday the fifteen"]):
    add("DP", 2 + 23 * (71 + k), t, R5, "alone")
for k, t in enumerate(["I'll go back second Sunday", "I'll go back first Sunday", "I'll go back third Tuesday",
                       "I'll go back fifth Sunday"]):
    add("DP", 2 + 23 * (78 + k), t, R5, "alone")
add("DP", 2 + 23 * 82, "I went back 20th of next month", R0, "inside", [("20th of next month", day(D(2016, 12, 20)))])
add("DP", 2 + 23 * 83, "I went back 31st of this month", R0, "inside")  # November has no 31st
add("DP", 2 + 23 * 84, "I'll go back January 12, 2018", R0, "alone")
add("DP", 2 + 23 * 85, "I'll go back 9-18-15", R0, "alone")
add("DP", 2 + 23 * 86, "I went back two days ago", R0, "resolve", [("two days ago", day(R0 - 2 * ONE))])
add("DP", 2 + 23 * 87, "I went back two years ago", R0, "resolve", [("two years ago", day(months_back(R0, 24)))])
add("DP", 2 + 23 * 88, "16. Nov. 2016", R7, "alone")
dq = 2 + 23 * 89
add("DP", dq, "We had a meeting 1 month 21 days ago", R6, "inside")
add("DP", dq + 24, "I left here 2 years 1 month 21 days ago", R6, "inside")
add("DP", dq + 48, "I will leve here 2 years 21 days later", R6, "alone")
add("DP", dq + 72, "I left here 1 month 2 years 21 days ago", R6, "inside")
add("DP", dq + 96, "We had a meeting 1 month and 21 days ago", R6, "inside")
add("DP", dq + 120, "We had a meeting 1 month, 21 days ago", R6, "inside")

# --- DatePeriodParser.json: 25 lines a block from line 2; the season blocks
# (70-75) have 19; from block 96 on, 26 (an extra "NotSupported" line).
def dpp(k):
    if k <= 70:
        return 2 + 25 * k
    if k <= 76:
        return 1752 + 19 * (k - 70)
    if k <= 96:
        return 1866 + 25 * (k - 76)
    if k <= 117:
        return 2366 + 26 * (k - 96)
    return 2932 + 26 * (k - 118)  # block 117 (a season) has 20 lines


pp = [
    (0, "I'll be out from 4 to 22 this month", R0, "inside", None),
    (1, "I'll be out from 4-23 in next month", R0, "inside", None),
    (2, "I'll be out from 3 until 12 of Sept hahaha", R0, "alone", None),
    (3, "I'll be out from Friday the 11th until Tuesday the 15th", R0, "alone", None),
    (4, "I'll be out 4 to 23 next month", R0, "inside", None),
    (5, "I'll be out 4 till 23 of this month", R0, "inside", None),
    (6, "I'll be out between 4 and 22 this month", R0, "inside", None),
    (7, "I'll be out between 3 and 12 of Sept hahaha", R0, "alone", None),
    (8, "I'll be out from 4 to 22 January, 1995", R0, "alone", None),
    (9, "I'll be out between 4-22 January, 1995", R0, "alone", None),
    (10, "I'll be out between september 4th through september 8th", R0, "alone", None),
    (11, "I'll be out on this week", R0, "resolve", [("this week", week(R0, 0))]),
    (12, "I'll be out on the coming week", R0, "alone", None),  # the next seven days, or next week?
    (13, "I'll be out on current week", R0, "resolve", [("current week", week(R0, 0))]),
    (14, "I'll be out February", R0, "alone", None),
    (15, "I'll be out this September", R0, "alone", None),
    (16, "I'll be out last sept", R0, "alone", None),  # SPEC: last <month> is ambiguous
    (17, "I'll be out next june", R0, "alone", None),
    (18, "I'll be out the third week of this month", R0, "inside", None),
    (19, "I'll be out the last week of july", R0, "alone", None),
    (20, "week of september.16th", R0, "alone", None),
    (21, "month of september.16th", R0, "alone", None),
    (22, "I'll be out 2015.3", R0, "alone", None),
    (23, "I'll be out 2015-3", R0, "alone", None),
    (24, "I'll be out 2015/3", R0, "alone", None),
    (25, "I'll be out 3/2015", R0, "alone", None),
    (26, "scheduel a meeting in two weeks", R0, "alone", None),
    (27, "next 2 days", R0, "alone", None),  # a future count from now
    (28, "past few days", R0, "alone", None),
    (29, "the week", R0, "alone", None),
    (30, "this week", R0, "resolve", [("this week", week(R0, 0))]),
    (31, "my week", R0, "alone", None),
    (32, "the weekend", R0, "alone", None),
    (33, "this weekend", R0, "alone", None),  # SPEC: the one coming or the one just gone?
    (34, "my weekend", R0, "alone", None),
    (35, "I'll be out Oct. 2 to October 22", R0, "alone", None),
    (36, "I'll be out January 12, 2016 - 01/22/2016", R0, "alone", None),
    (37, "I'll be out 1st Jan until Wed, 22 of Jan", R0, "alone", None),
    (38, "I'll be out today till tomorrow", R0, "resolve", [("today", day(R0)), ("tomorrow", day(R0 + ONE))]),
    (39, "I'll be out from Oct. 2 to October 22", R0, "alone", None),
    (40, "I'll be out between Oct. 2 and October 22", R0, "alone", None),
    (41, "I'll be out November 19-20", R0, "alone", None),
    (42, "I'll be out November 19 to 20", R0, "alone", None),
    (43, "I'll be out November between 19 and 20", R0, "alone", None),
    (44, "I'll be out rest of the week", R0, "alone", None),
    (45, "I'll be out rest of week", R0, "alone", None),
    (46, "I'll be out rest the week", R0, "alone", None),
    (47, "I'll be out rest this week", R0, "inside", None),
    (48, "I'll be out rest of my week", R0, "alone", None),
    (49, "I'll be out rest of current week", R0, "inside", None),
    (50, "I'll be out rest of the month", R0, "alone", None),
    (51, "I'll be out rest of the year", R0, "alone", None),
    (52, "I'll be out rest of my week", R8, "alone", None),
    (53, "I'll be out on weekend", R0, "alone", None),
    (54, "I'll be out on this weekend", R0, "alone", None),
    (55, "I'll be out june 2016", R0, "alone", None),
    (56, "I'll be out june next year", R0, "inside", None),
    (57, "I'll be out next year", R0, "resolve", [("next year", "2017")]),
    (58, "I'll be out next 3 days", R0, "alone", None),
    (59, "I'll be out next 3 months", R0, "alone", None),
    (60, "I'll be out in 3 year", R0, "alone", None),
    (61, "I'll be out past 3 weeks", R0, "resolve", [("past 3 weeks", past(R0, 3, "week"))]),
    (62, "I'll be out last 3year", R0, "resolve", [("last 3year", past(R0, 3, "year"))]),
    (63, "I'll be out previous 3 weeks", R0, "resolve", [("previous 3 weeks", past(R0, 3, "week"))]),
    (64, "the first week of Oct", R0, "alone", None),
    (65, "I'll be out the third week of 2027", R0, "alone", None),
    (66, "I'll be out the third week next year", R0, "inside", None),
    (67, "I'll be out the third quarter of 2016", R0, "alone", None),
    (68, "I'll be out the third quarter this year", R0, "inside", None),
    (69, "I'll be out 2016 the third quarter", R0, "alone", None),
    (70, "I'll leave this summer", R0, "alone", None),
    (71, "I'll leave next spring", R0, "alone", None),
    (72, "I'll leave the summer", R0, "alone", None),
    (73, "I'll leave summer", R0, "alone", None),
    (74, "I'll leave summer 2016", R0, "alone", None),
    (75, "I'll leave summer of 2016", R0, "alone", None),
    (76, "upcoming month holidays", R0, "alone", None),
    (77, "next month holidays", R0, "resolve", [("next month", month_label(R0, 1))]),
    (78, "Please find us a time to meet later this month", R1, "inside", None),
    (79, "Please find us a time to meet later this week", R1, "inside", None),
    (80, "Please find us a time to meet later this year", R1, "inside", None),
    (81, "Please find us a time to meet early next year", R1, "inside", None),
    (82, "Please find us a time to meet early next week", R1, "inside", None),
    (83, "Please find us a time to meet early next month", R1, "inside", None),
    (84, "We had a meeting late last year", R1, "inside", None),
    (85, "We had a meeting late last week", R1, "inside", None),
    (86, "We had a meeting late last month", R1, "inside", None),
    (87, "Cortana, please coordinate a 25 minutes meeting with antonio next week between Wednesday and Friday.", R2, "inside", None),
    (88, "Cortana, please coordinate a 25 minutes meeting with antonio last week between Friday and Sunday.", R2, "inside", None),
    (89, "Cortana, please coordinate a 25 minutes meeting with antonio this week from Tue to Thur.", R2, "inside", None),
    (90, "We had a meeting this week", R3, "resolve", [("this week", week(R3, 0))]),
    (91, "We had a meeting first week of this year", R3, "inside", None),
    (92, "first week of 2015", R4, "alone", None),
    (93, "second week of 2015", R4, "alone", None),
    (94, "this weekend", R4, "alone", None),
    (95, "last week of 2015", R4, "inside", None),
    (96, "I'll be out year 247", R9, "alone", None),
    (97, "In the 1970s", R0, "alone", None),
    (98, "In the 2000s, he was born.", R0, "alone", None),
    (99, "In the 1970's", R0, "alone", None),
    (100, "In the 70s", R0, "alone", None),
    (101, "In the 70's", R0, "alone", None),
    (102, "In the '40s", R0, "alone", None),
    (103, "In the seventies", R0, "alone", None),
    (104, "In the nineteen seventies", R0, "alone", None),
    (105, "In the two thousand and tens", R0, "alone", None),
    (106, "In the twenty-tens", R0, "alone", None),
    (107, "In the two thousands", R0, "alone", None),
    (108, "In the noughties", R0, "alone", None),
    (109, "I'll be out from 2 to 7 Feb, two thousand and eighteen", R0, "alone", None),
    (110, "I'll be out between 2 and 7 Feb two thousand and eighteen", R0, "alone", None),
    (111, "I'll be out Feb between 2-7 two thousand and eighteen", R0, "alone", None),
    (112, "It happened in June of nineteen ninety nine", R0, "alone", None),
    (113, "In nineteen twenty eight", R0, "alone", None),
    (114, "In one thousand seven hundred and eighty nine", R0, "alone", None),
    (115, "I'll be out the third week of two thousand and twenty seven", R0, "alone", None),
    (116, "I'll be out the third quarter of two thousand and twenty", R0, "alone", None),
    (117, "In the spring of nineteen seventy eight", R0, "alone", None),
    (118, "Year two hundred and sixty seven", R0, "alone", None),
    (119, "I'll be out the week after next", R0, "resolve", [("the week after next", week(R0, 2))]),
    (120, "I'll be out the month after the next", R0, "resolve", [("the month after the next", month_label(R0, 2))]),
    (121, "I'll be out the year after next", R0, "resolve", [("the year after next", f"{R0.year + 2}")]),
    (122, "I'll be out the weekend after the next", R0, "resolve",
     [("the weekend after the next", rng(monday(R0, 2) + 5 * ONE, monday(R0, 2) + 6 * ONE))]),
]
for k, text, ref, kind, want in pp:
    add("DPP", dpp(k), text, ref, kind, want)

# --- DateExtractor.json: 11 lines a block from line 2; blocks 81-84 (no
# result) 6; 85-94 (with a Context) 14; then 11, two-result blocks 16,
# and 12 from block 106 (an extra "NotSupported" line).
de_alone = [
    "I'll go back on 15", "I'll go back April 22", "I'll go back Jan-1", "I'll go back Jan/1",
    "I'll go back October. 2", "I'll go back January 12, 2016", "I'll go back January 12 of 2016",
    "I'll go back Monday January 12th, 2016", "I'll go back 02/22/2016", "I'll go back 21/04/2016",
    "I'll go back 21/04/16", "I'll go back 9-18-15", "I'll go back on 4.22", "I'll go back on 4-22",
    "I'll go back at 4.22", "I'll go back in 4-22", "I'll go back on    4/22", "I'll go back on 22/04",
    "I'll go back       4/22", "I'll go back 22/04", "I'll go back 2015/08/12", "I'll go back 11/12,2016",
    "I'll go back 11/12,16", "I'll go back 1st Jan", "I'll go back 1-Jan", "I'll go back 28-Nov",
    "I'll go back Wed, 22 of Jan", "I'll go back the first friday of july",
]
for k, t in enumerate(de_alone):
    add("DE", 2 + 11 * k, t, RE, "alone")
de = lambda k: 2 + 11 * k
add("DE", de(28), "I'll go back the first friday in this month", RE, "inside",
    [("the first friday in this month", nth_weekday(RE, 0, "friday", 1))])
add("DE", de(29), "I'll go back two weeks from now", RE, "alone")
add("DE", de(30), "I'll go back next week on Friday", RE, "inside", [("next week on Friday", week_day(RE, 1, "friday"))])
add("DE", de(31), "I'll go back on Friday next week", RE, "inside", [("Friday next week", week_day(RE, 1, "friday"))])
add("DE", de(32), "past Monday", RE, "alone")  # "it is past Monday": not sure to name a day
for k, t in [(33, "I'll go back on Tues."), (34, "I'll go back on Tues. good news."), (35, "I'll go back on Tues"),
             (36, "I'll go back on Friday"), (37, "I'll go back Friday")]:
    add("DE", de(k), t, RE, "alone")
add("DE", de(38), "I'll go back today", RE, "resolve", [("today", day(RE))])
add("DE", de(39), "I'll go back tomorrow", RE, "resolve", [("tomorrow", day(RE + ONE))])
add("DE", de(40), "I'll go back yesterday", RE, "resolve", [("yesterday", day(RE - ONE))])
add("DE", de(41), "I'll go back the day before yesterday", RE, "resolve", [("the day before yesterday", day(RE - 2 * ONE))])
add("DE", de(42), "I'll go back the day after tomorrow", RE, "resolve", [("the day after tomorrow", day(RE + 2 * ONE))])
for k, t in [(43, "I'll go back the next day"), (44, "I'll go back next day"), (45, "I'll go back this Friday"),
             (46, "I'll go back next Sunday")]:
    add("DE", de(k), t, RE, "alone")
add("DE", de(47), "I'll go back last Sunday", RE, "resolve", [("last Sunday", day(last_wd(RE, "sunday")))])
for k, t in [(48, "I'll go back last day"), (49, "I'll go back the last day"), (50, "I'll go back the day")]:
    add("DE", de(k), t, RE, "alone")
add("DE", de(51), "I'll go back this week Friday", RE, "inside", [("this week Friday", week_day(RE, 0, "friday"))])
add("DE", de(52), "I'll go back next week Sunday", RE, "inside", [("next week Sunday", week_day(RE, 1, "sunday"))])
add("DE", de(53), "I'll go back last week Sunday", RE, "inside", [("last week Sunday", week_day(RE, -1, "sunday"))])
for k, t in [(54, "I'll go back 15 June 2016"), (55, "a baseball on may the eleventh"), (56, "I'll go back fourth of may"),
             (57, "I'll go back 4th of march"), (58, "I'll go back Jan first"), (59, "I'll go back May twenty-first"),
             (60, "I'll go back May twenty one"), (61, "I'll go back second of Aug"),
             (62, "I'll go back twenty second of June")]:
    add("DE", de(k), t, RE, "alone")
add("DE", de(63), "I went back two months ago", RE, "resolve", [("two months ago", day(months_back(RE, 2)))])
add("DE", de(64), "I'll go back two days later", RE, "alone")  # later than what?
add("DE", de(65), "who did i email a month ago", RE, "resolve", [("a month ago", day(months_back(RE, 1)))])
for k, t in enumerate(["I went back for the 27", "I went back for the 27th", "I went back for the 27.",
                       "I went back for the 27!", "I went back for the 27 .", "I went back for the 21st",
                       "I went back for the 22nd", "I went back for the second", "I went back for the twenty second",
                       "I went back for the thirty first", "I went back on the 27th", "I went back on the 21st",
                       "I went back on 22nd", "I went back on the second!", "I went back on twenty second?"]):
    add("DE", de(66 + k), t, RE, "alone")
for k, t in enumerate(["the first prize", "I'll go to the 27th floor",
                       "Commemorative Events for the 25th Anniversary of Diplomatic Relations between Singapore and China",
                       "Get tickets for the 17th Door Haunted Experience"]):
    add("DE", 893 + 6 * k, t, RE, "alone")
for k, t in enumerate(["What do I have on Saturday the second", "A meeting for Wednesday the 27th with Joe Smith",
                       "I'll go back Thursday the 21st", "I'll go back Friday the 22nd", "I'll go back Saturday the 23rd",
                       "I'll go back Friday the 15th", "I'll go back Thursday the twenty first",
                       "I'll go back Friday the twenty second", "I'll go back Friday the fifteen",
                       "I'll go back Thursday the seventh"]):
    add("DE", 917 + 14 * k, t, RC, "alone")
for k, t in enumerate(["I'll go back second Sunday", "I'll go back first Sunday", "I'll go back third Tuesday",
                       "I'll go back fifth Sunday", "I'll go back sixth Sunday", "I'll go back tenth Monday"]):
    add("DE", 1057 + 11 * k, t, RE, "alone")
add("DE", 1123, "I'll go back 20th of next month", RE, "inside", [("20th of next month", day(D(2024, 3, 20)))])
add("DE", 1134, "I'll go back 31st of this month", RE, "inside")  # February has no 31st
add("DE", 1145, "Cortana could try to arrange a Skype call either Friday this week or Tuesday of next week", RE, "inside",
    [("Friday this week", week_day(RE, 0, "friday")), ("Tuesday of next week", week_day(RE, 1, "tuesday"))])
add("DE", 1161, "Cortana could try to arrange a Skype call either Friday of this week or this week on Saturday", RE, "inside",
    [("Friday of this week", week_day(RE, 0, "friday")), ("this week on Saturday", week_day(RE, 0, "saturday"))])
add("DE", 1177, "16. Nov. 2016", RE, "alone")
add("DE", 1188, "We had a meeting 1 month 21 days ago", RE, "inside")
add("DE", 1200, "I left here 2 years 1 month 21 days ago", RE, "inside")
add("DE", 1212, "I will leve here 2 years 21 days later", RE, "alone")
add("DE", 1224, "I left here 1 month 2 years 21 days ago", RE, "inside")
add("DE", 1236, "I left here the 20th next month", RE, "inside")

# --- parsedatetime (line = the phrase's own line).
RN = D(2023, 5, 20)   # "now" in parsedatetime's cases: chosen
TUES = [D(2016, 5, 31), D(2016, 3, 1)]
SATS = [D(2016, 2, 27), D(2016, 11, 19)]
PDD = D(2016, 1, 1)
for line, t in [(13, "now"), (14, "right now"), (71, "5 minutes from now"), (72, "5 min from now"),
                (73, "5m from now"), (74, "five minutes from now"), (75, "five min from now"), (80, "in 5 minutes"),
                (81, "in 5 min"), (82, "5m"), (83, "in five minutes"), (84, "in five min"), (85, "five minutes"),
                (86, "five min"), (94, "5 minutes before now"), (95, "5 min before now"), (96, "5m before now"),
                (97, "five minutes before now"), (98, "five min before now"), (103, "5 minutes ago"),
                (111, "1 week from now"), (112, "one week from now"), (113, "a week from now"),
                (118, "7 days from now"), (119, "seven days from now"), (124, "in 1 week"), (125, "in one week"),
                (126, "in a week"), (137, "in 7 days"), (138, "in seven days"), (175, "next December 31"),
                (182, "next February 4"), (241, "next day")]:
    add("PS", line, t, RN, "alone")
for ref in TUES:
    for line, t in [(23, "Thursday"), (32, "one hour from Thursday"), (41, "one hour before Thursday"),
                    (55, "one hour from Thursday"), (63, "one hour before Thursday"), (200, "next friday"),
                    (201, "next friday?"), (212, "next friday"), (222, "next friday at 1pm"),
                    (223, "1pm next friday"), (231, "1pm this friday")]:
        add("PS", line, t, ref, "alone")
add("PS", 132, "next week", RN, "resolve", [("next week", week(RN, 1))])
for line, t in [(146, "1 week before now"), (147, "one week before now"), (148, "a week before now"),
                (153, "7 days before now"), (154, "seven days before now"), (159, "1 week ago"), (160, "a week ago")]:
    add("PS", line, t, RN, "resolve", [(t, day(RN - 7 * ONE))])
add("PS", 166, "last week", RN, "resolve", [("last week", week(RN, -1))])
add("PS", 240, "tomorrow", RN, "resolve", [("tomorrow", day(RN + ONE))])
add("PS", 247, "yesterday", RN, "resolve", [("yesterday", day(RN - ONE))])
add("PS", 253, "today", RN, "resolve", [("today", day(RN))])

for line, t in [(24, "5 minutes ago"), (29, "34 hours ago"), (43, "58.4 minutes ago"), (48, "1855336.424 minutes ago"),
                (53, "8.3 hours ago"), (58, "22.355 hours ago"), (70, "3 years, 2 weeks, 5 days"),
                (71, "3 years, 2 weeks and 5 days"), (72, "5 day 3 week 2 year"), (73, "2weeks, 5days, 2year"),
                (78, "2 months, 1 hour, 4 minutes, 32 seconds"), (79, "2 months, 1 hour, 4 minutes, and 32 seconds"),
                (80, "32 second 4 minute 2 month 1 hour"), (81, "2months, 4minute, 32second, 1hour"),
                (89, "3 yrs, 2 wks, 5 dys"), (90, "3 y, 2 w and 5 d"), (91, "5dy 3w 2yr"), (92, "2wk, 5d, 2y"),
                (99, "2 mth, 1 hr, 4 min, 32 sec"), (100, "2 mth, 1 h, 4 m, and 32 s"), (101, "32sec 4m 2mth 1h"),
                (102, "2mth, 4min, 32s, 1hr")]:
    add("PD", line, t, PDD, "alone")
add("PD", 34, "2 days ago", PDD, "resolve", [("2 days ago", day(PDD - 2 * ONE))])
for line, t in [(112, "4pm + 3 days"), (113, "4pm +3 days")]:
    add("PD", line, t, D(2016, 4, 5), "alone")
for line, t in [(122, "4pm - 3 days"), (123, "4pm -3 days")]:
    add("PD", line, t, RN, "alone")

for line, t in [(11, "flight from SFO at 4pm"), (15, "meeting eod"), (16, "eod meeting"), (47, "eod"), (54, "eom"),
                (58, "eoy")]:
    add("PP", line, t, RN, "alone")
add("PP", 22, "tomorrow eod", RN, "resolve", [("tomorrow", day(RN + ONE))])
add("PP", 23, "eod tomorrow", RN, "resolve", [("tomorrow", day(RN + ONE))])
for ref in SATS:
    add("PP", 34, "eod sunday", ref, "alone")
    add("PP", 40, "eod friday", ref, "alone")
    add("PP", 68, "last friday", ref, "resolve", [("last friday", day(last_wd(ref, "friday")))])

# --- SUTime (line = the sentence's own line in the Java test text).
SU = D(2010, 2, 17)  # createDocument(testText, "20100217"): a Wednesday
for line, t in [(54, "It was a 3-year long drought."), (55, "The four-month old baby slept peacefully."),
                (58, "In the 2 months following the crash, the investigators checked all the records."),
                (60, "He was preoccupied for ten days before leaving."), (61, "Sales rose for the fifth straight year."),
                (62, "Business was slow for the third straight month in a row."), (63, "There are no more than 60 days."),
                (64, "In no more than 20 years, the city completely changed."), (65, "It has been more than 60 days."),
                (66, "Has it been more than 20 years?"), (67, "There was at least sixty days."),
                (68, "The book was completed in four years."), (69, "That took a decade."),
                (70, "After a few decades, old memories faded."), (71, "After a few hundred decades, everything changed."),
                (72, "It has been warm in recent weeks."), (73, "Did it rain on the ninth day consecutively?"),
                (150, "He was away for the first 9 months of 1997."),
                (152, "It has been three hours, twenty minutes and 5 seconds."),
                (154, "He waited for two years and three months."), (155, "He waited for 6 and a half months."),
                (156, "It was two to three months."), (157, "It was five hundred and twelve days."),
                (158, "It was six and three months."), (159, "Several days has already passed."),
                (160, "For five hours on Friday, the shop was closed."),
                (161, "For more than five hours on Friday, the shop was closed."),
                (223, "Claudia had ruled the duchy well in her regency from 1632 to 1646, and was successful in keeping Tyrol out of the Thirty Years War."),
                (269, "ISO datetime is 2004-03-04T18:32:56+1600."), (270, "ISO datetime is 2004-03-04T18:32:56."),
                (271, "ISO date is 19880217."), (272, "ISO date is 1988-02-17."), (273, "Euro date is 19.02.10."),
                (274, "Euro date is 19.02.2010."), (275, "ISO time is T13:23:42."), (276, "It is 8:43 on 6/12/2008."),
                (277, "It is 6:53:32 on 7-16-2010."), (278, "The date is 12-03-2007."),
                (279, "ISO date without day is 2008-04."), (280, "ISO partial datetime 2008-05-16T09."), (281, "It is 2:14:12"),
                (343, "ISO datetime is 2004-03-04T18:32:56 Pacific Standard Time."),
                (344, "ISO datetime is 2004-03-04T18:32:56 Eastern Standard Time."), (345, "Time is 4:30pm Mountain Time."),
                (346, "Time is 9:30 am Pacific Time."), (347, "ISO time is T13:23:42 MDT."), (348, "It is 8:43 PST on 6/12/2008."),
                (349, "It is 6:53:32 PDT on 7-16-2010."), (350, "ISO partial datetime 2008-05-16T09 Beijing Time."),
                (351, "It is 2:14:12 MSK"),
                (426, "I'm leaving on vacation two weeks from next Tuesday."), (428, "It's almost Thursday."),
                (429, "I tutored an English student some Thursdays in 1994."),
                (430, "The meeting is scheduled for every Monday from 3 to 4 p.m."),
                (431, "The concert is at 8:00 pm on Friday."), (432, "The concert is Friday at 8:00 pm."),
                (434, "The company had its third best second quarter ever."), (435, "Mr. Smith left Friday, October 1, 1999."),
                (436, "Mr. Smith arrived on the second of December."), (437, "Mr. Smith arrived on the second of June."),
                (438, "Mr. Smith arrived on the second of July."), (439, "Mr. Smith arrived on the second of August."),
                (440, "In October of 1963, there was a big snow storm."), (442, "She arrived Saturday night."),
                (444, "The book was published in nineteen ninety-one.")]:
    add("SU", line, t, SU, "alone")
add("SU", 56, "Over the past twenty four years, the number of crashes has decreased.", SU, "resolve",
    [("the past twenty four years", past(SU, 24, "year"))])
add("SU", 74, "The meeting was two days ago.", SU, "resolve", [("two days ago", day(SU - 2 * ONE))])
add("SU", 224, "The focus of today's Daily Eye Candy is the 22-year old fashion supermodel Chad White who is a native of Portland , Oregon.",
    SU, "resolve", [("today's", day(SU))])
add("SU", 427, "John left 2 days before yesterday.", SU, "inside", [("2 days before yesterday", day(SU - 3 * ONE))])
add("SU", 433, "Did you get up before 7:00 am today?", SU, "resolve", [("today", day(SU))])
add("SU", 441, "Yesterday, it was raining.", SU, "resolve", [("Yesterday", day(SU - ONE))])
add("SU", 443, "She spent one dollar ($1) yesterday afternoon.", SU, "resolve", [("yesterday afternoon", day(SU - ONE))])


def want_text(text, want):
    if not want:
        return text
    out, pos = "", 0
    for phrase, label in want:
        k = text.index(phrase, pos)
        out += text[pos:k + len(phrase)] + f" ({label})"
        pos = k + len(phrase)
    return out + text[pos:]


print("// Code generated by testdata/dates/suites.py; DO NOT EDIT.")
print("//")
print("// Phrasings from public date-parser test suites (file and line of each")
print("// case's input); the expected dates were computed by Python's datetime")
print("// and calendar modules (see the script), not by this package.")
print()
print("package dates")
print()
print("var suiteCases = []struct {")
print("\tfile   string")
print("\tline   int")
print("\tsaidOn string")
print("\tkind   string // resolve, alone or inside")
print("\tin     string")
print("\twant   string")
print("}{")
for f, line, text, ref, kind, want in C:
    print(f"\t{{{json.dumps(FILES[f])}, {line}, {json.dumps(iso(ref))}, {json.dumps(kind)}, {json.dumps(text)}, {json.dumps(want_text(text, want))}}},")
print("}")
