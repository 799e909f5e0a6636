package play_test

import (
	"fmt"

	"github.com/harpe-dev/harpe/web/play"
)

// The page calls Call with a function name and a JSON object, and gets a
// JSON object back: a result, or an error as a value.
func ExampleCall() {
	fmt.Println(play.Call("dates", `{"text":"See you tomorrow.","said_on":"2026-05-20"}`))
	fmt.Println(play.Call("dates", `{"text":"See you tomorrow."}`))
	// Output:
	// {"result":{"said_on":"2026-05-20","spans":[{"start":8,"end":16,"phrase":"tomorrow","date":"2026-05-21","end_date":"2026-05-21","label":"2026-05-21"}],"text":"See you tomorrow (2026-05-21)."}}
	// {"error":"said_on: required: the day the text was said (YYYY-MM-DD)"}
}

// The page fetches a table and hands it over; a bad one is an error value.
func ExampleLoadEncoding() {
	fmt.Println(play.LoadEncoding("cl100k_base", []byte("<!doctype html>")))
	// Output:
	// {"error":"tokenize: cl100k_base: not a table (bad header)"}
}
