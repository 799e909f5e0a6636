package dates_test

import (
	"context"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/dates"
)

func ExampleAnnotate() {
	saidOn, _ := dates.ParseAnchor("2023/05/20 (Sat) 02:21")
	out, _, _ := dates.Annotate(context.Background(), "I ran yesterday and three weeks ago; next Friday we race.", saidOn)
	fmt.Println(out)
	// Output:
	// I ran yesterday (2023-05-19) and three weeks ago (2023-04-29); next Friday we race.
}

func ExampleFind() {
	spans, _ := dates.Find(context.Background(), "We met last weekend, not last month.", dates.Date{Year: 2023, Month: 5, Day: 20})
	for _, s := range spans {
		fmt.Printf("%d-%d %q %s to %s, shown as %s\n", s.Start, s.End, s.Phrase, s.First, s.Last, s.Label())
	}
	// Output:
	// 7-19 "last weekend" 2023-05-13 to 2023-05-14, shown as 2023-05-13 to 2023-05-14
	// 25-35 "last month" 2023-04-01 to 2023-04-30, shown as 2023-04
}

func ExampleParseAnchor() {
	for _, s := range []string{"1:56 pm on 8 May, 2023", "2023-05-20T23:30:00-07:00", "1683554160"} {
		d, err := dates.ParseAnchor(s)
		fmt.Println(d, err)
	}
	// Output:
	// 2023-05-08 <nil>
	// 2023-05-20 <nil>
	// 2023-05-08 <nil>
}

// A whole expression is resolved, and a phrase inside one that is not read
// is left alone rather than dated wrong.
func ExampleAnnotate_expressions() {
	saidOn := dates.Date{Year: 2023, Month: 5, Day: 20} // a Saturday
	out, _, _ := dates.Annotate(context.Background(), "I flew 3 days before yesterday, land Thursday next week, and was sick at the end of last week.", saidOn)
	fmt.Println(out)
	// Output:
	// I flew 3 days before yesterday (2023-05-16), land Thursday next week (2023-05-25), and was sick at the end of last week.
}

func ExampleAnnotate_cancel() {
	saidOn := dates.Date{Year: 2023, Month: 5, Day: 20}
	out, _, err := dates.Annotate(context.Background(), "We met yesterday.", saidOn)
	fmt.Println(out, err)

	// A context that is done gives its error and no text.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, spans, err := dates.Annotate(ctx, "We met yesterday.", saidOn)
	fmt.Printf("%q %d %v\n", out, len(spans), err)
	// Output:
	// We met yesterday (2023-05-19). <nil>
	// "" 0 context canceled
}

// An item is dated by its own timestamp: "yesterday", said on May 20,
// is May 19.
func ExampleAnnotateItem() {
	at, _ := dates.AnchorTime("2023/05/20 (Sat) 02:21")
	content, rep, _ := dates.AnnotateItem(context.Background(), "I ran yesterday.", &at, nil)
	fmt.Println(content, *rep.SaidOn, rep.Spans[0].Phrase, rep.Spans[0].Date)
	// Output:
	// I ran yesterday (2023-05-19). 2023-05-20 yesterday 2023-05-19
}

func ExampleParseDay() {
	d, err := dates.ParseDay("2024-02-29")
	fmt.Println(d, err)
	_, err = dates.ParseDay("2023-02-29")
	fmt.Println(err)
	// Output:
	// 2024-02-29 <nil>
	// "2023-02-29": day 29 is out of range for February 2023 (1-28)
}
