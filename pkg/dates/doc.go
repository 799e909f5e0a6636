// Package dates writes calendar dates next to relative date phrases, so a
// remembered turn can be placed in time out of its conversation.
//
// When an agent recalls a turn from weeks ago, "yesterday" in that turn no
// longer means yesterday. [Annotate] resolves each relative phrase against
// the day the text was said and writes the date right after it:
//
//	I called her yesterday (2023-05-19) and again last week (2023-05-08 to 2023-05-14).
//
// # Phrases
//
// Said on a day D, these phrases are resolved (any letter case, words
// separated by white space with at most one line break, numbers in digits
// or words); docs/dates.md lists every family with its rule:
//
//   - today, tonight, this morning/afternoon/evening/night, today evening → D
//   - yesterday, last night, last evening → D−1; the day before yesterday → D−2
//   - tomorrow → D+1; the day after tomorrow → D+2 (yesterday and
//     tomorrow may take morning, afternoon, evening or night)
//   - N days/weeks before yesterday, N days after tomorrow → D−1−N, D+1+N
//   - N days ago, N weeks ago (7N days) → one day; also wk(s), fortnight(s)
//   - N months ago, N years ago → the same day of the month, clamped to the
//     month's end (a month before 31 March 2023 is 28 February 2023); also
//     mo(s), yr(s), decade(s)
//   - N Fridays ago → the N-th Friday strictly before D; N weekends ago
//   - the week/weekend/month/year before last, the week after next, the
//     night before last → two back or ahead
//   - last/previous/this/current/next week → Monday to Sunday; a weekday
//     of such a week ("Thursday next week", "Monday of last week", "last
//     week's Tuesday", "next week on Friday") → that day
//   - last weekend, this past weekend → Saturday and Sunday of the week
//     before D's week, so on a Saturday or Sunday it is the weekend before
//     the current one
//   - last/previous/this/next month → the month (annotated 2023-04); the
//     15th of next month, second Friday of last month → that day
//   - last/previous/this/next year → the year (annotated 2022)
//   - last Monday … last Sunday, previous Thursday, this past Sunday, last
//     wed → the most recent such day strictly before D
//   - the past week/month/year, last 3 weeks, past 4 days, the last two
//     years → the days from D minus that much to D−1
//
// N is 1 to 9999 in digits, or a, an, one … nineteen, twenty … ninety and
// their compounds (twenty-one, thirty two), or a couple (of) for 2.
// A possessive ("yesterday's") is part of the phrase.
//
// # Left alone
//
// A phrase is never dated when the words around it change what it means
// and the whole expression is not one of the above: "end of last week",
// "late last week", "1 month 21 days ago", "a week ago yesterday", "the
// week before last week", "this month last year", "june next year" are
// left alone entirely, as are days that do not exist ("the 31st of last
// month" said in May), and open ranges ("more than two weeks ago").
// Phrases that could mean more than one date are not touched: next Friday,
// this Friday, in two weeks, next weekend, last May, the coming week; nor
// future counts (in 3 days, 5 days from now, next 3 days), nor vague ones:
// a few days ago, several weeks ago, recently, a while ago, the other day,
// the past few days. "last", "next" and "previous" after a determiner ("in
// the last week", "my last year at school", "the previous week") mean a
// stretch of time, an ordinal or a day of the story and are left alone.
// So are ranges ("two or three weeks ago") and units other than days,
// weeks, months and years ("an hour ago"). Words are never broken:
// yesterdays, lastly and agony hold no phrase, nor do file names, paths and
// URLs (today.txt, https://example.com/today). A
// phrase already followed by a date, such as an earlier annotation,
// "(May 19)" or ", 19 May", is left alone, so annotating twice changes
// nothing.
//
// # Anchors
//
// [ParseAnchor] reads the day a session timestamp names, in the
// timestamp's own offset, from the formats of [AnchorFormats]: RFC 3339,
// "2023/05/20 (Sat) 02:21", "1:56 pm on 8 May, 2023", RFC 2822, Unix time
// and others; [ParseDay] reads a plain YYYY-MM-DD. [AnnotateItem] dates a
// context item's content by its own timestamp, and [ReportSpans],
// [TextReport] and [ItemReport] are harpe dates' JSON report.
package dates
