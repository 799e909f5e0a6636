// Package usage says what recorded sessions used and cost: the listing
// of a transcript's messages with their recorded usage ([List],
// [Listing]), one-line session summaries grouped by session, day,
// project or model ([NewSessionSummary], [SessionSummaries],
// [NewSummary]), the token breakdown by category and tool
// ([NewSessionBreakdown], [NewBreakdown]), and [Collect], which reads a
// file through [transcript.Scan] and builds the one asked for of each
// conversation, keeping no message text.
//
// Each prices every recorded call as it is added from the price catalog
// it is given ([CallCost]: as the provider billed, at the call's date and
// tier) and counts what it cannot price ([UnpricedCalls]), never as a
// silent 0. A response that several files of one run record is
// billed once ([SessionSummaries]). The package prints nothing: the
// tables and JSON of `harpe transcript` are package report's.
package usage
