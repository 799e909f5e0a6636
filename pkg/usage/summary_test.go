package usage

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

func TestProjectDir(t *testing.T) {
	for _, tc := range []struct {
		name, head, want string
	}{
		{"claude code record", `{"type":"summary"}` + "\n" + `{"cwd":"/src/shop","type":"user"}` + "\n", "/src/shop"},
		{"codex session_meta", `{"payload":{"cwd":"/home/a/app","id":"x"},"type":"session_meta"}` + "\n", "/home/a/app"},
		{"cut off last line", `{"cwd":"/src/sh`, ""},
		{"key inside a string only", `{"text":"\"cwd\" is a key"}` + "\n", ""},
		{"none", `{"role":"user"}` + "\n", ""},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ProjectDir([]byte(tc.head)); got != tc.want {
				t.Errorf("ProjectDir = %q, want %q", got, tc.want)
			}
		})
	}
}

func FuzzProjectDir(f *testing.F) {
	f.Add([]byte(`{"cwd":"/src/shop"}` + "\n"))
	f.Add([]byte(`{"payload":{"cwd":"/a"}}`))
	f.Fuzz(func(t *testing.T, head []byte) {
		_ = ProjectDir(head) // must not panic
	})
}

// summaryMessage is an assistant call at ts answered by model.
func summaryMessage(ts string, model string, u transcript.Usage, call string) transcript.Message {
	at, _ := time.Parse(time.RFC3339, ts)
	return transcript.Message{Role: transcript.RoleAssistant, Timestamp: at, Model: model, Usage: &u, Call: call}
}

func TestNewSummary(t *testing.T) {
	// Session a: two calls on two days (one of them streamed as two
	// records: the second record carries no usage), by two models.
	// Session b: one call, no timestamps.
	a := NewSessionSummary("p/a.jsonl", "/src/x")
	for _, m := range []transcript.Message{
		summaryMessage("2026-01-02T23:00:00+00:00", "m1", transcript.Usage{Input: 1, CacheRead: 10, CacheWrite: 100, Output: 1000}, "c1"),
		{Role: transcript.RoleAssistant, Call: "c1", Timestamp: time.Date(2026, 1, 2, 23, 0, 1, 0, time.UTC)},
		summaryMessage("2026-01-03T01:30:00+02:00", "m2", transcript.Usage{Input: 2, Output: 5}, "c2"), // 2026-01-02 23:30 UTC
		summaryMessage("2026-01-03T09:00:00Z", "m2", transcript.Usage{Input: 4}, ""),
	} {
		if err := a.Add(&m); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Finish(&transcript.Transcript{Format: "claude-code"}); err != nil {
		t.Fatal(err)
	}
	b := NewSessionSummary("q/b.json", "")
	m := transcript.Message{Role: transcript.RoleAssistant, Model: "m1", Usage: &transcript.Usage{Input: 7}}
	if err := b.Add(&m); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(&transcript.Transcript{Format: "openai"}); err != nil {
		t.Fatal(err)
	}
	// a: 4 records, 3 messages (c1's two records are one); 3 calls;
	// input 1+2+4 = 7, cache read 10, cache write 100, output 1005;
	// start 2026-01-02T23:00:00Z, end 2026-01-03T09:00:00Z.
	if a.Messages != 3 || a.Recorded.Calls != 3 || a.Recorded.Input != 7 || a.Recorded.Output != 1005 {
		t.Errorf("a = %d messages, %+v", a.Messages, a.Recorded)
	}
	if *a.Start != "2026-01-02T23:00:00Z" || *a.End != "2026-01-03T09:00:00Z" {
		t.Errorf("a runs %s to %s", *a.Start, *a.End)
	}
	if b.Project != "q" || b.Start != nil {
		t.Errorf("b: project %q, start %v", b.Project, b.Start)
	}
	for _, tc := range []struct {
		by   string
		want string // key:sessions:calls:input for each row
	}{
		// b has no timestamp: it sorts after a.
		{"session", "/src/x:1:3:7 q:1:1:7"},
		// Days in UTC: 2026-01-02 holds c1 and c2 (input 1+2), 2026-01-03
		// the last call; b, with no timestamp at all, is "-".
		{"day", "-:1:1:7 2026-01-02:1:2:3 2026-01-03:1:1:4"},
		{"project", "/src/x:1:3:7 q:1:1:7"},
		// m1: a's first call (1) and b's (7); m2: 2 + 4.
		{"model", "m1:2:2:8 m2:1:2:6"},
	} {
		t.Run(tc.by, func(t *testing.T) {
			var ss SessionSummaries
			ss.Add(b, a)
			s, err := NewSummary(ss, tc.by)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i := range s.Sessions.Len() {
				ss := s.Sessions.At(i)
				got = append(got, ss.Project+":1:"+itoa(ss.Recorded.Calls)+":"+itoa(ss.Recorded.Input))
			}
			for _, g := range s.Groups {
				got = append(got, g.Key+":"+itoa(g.Sessions)+":"+itoa(g.Recorded.Calls)+":"+itoa(g.Recorded.Input))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("rows %q, want %q", strings.Join(got, " "), tc.want)
			}
			// Totals: 4 calls, input 14, in every grouping.
			if s.Totals.Sessions != 2 || s.Totals.Recorded.Calls != 4 || s.Totals.Recorded.Input != 14 {
				t.Errorf("totals %+v", s.Totals)
			}
		})
	}
	if _, err := NewSummary(SessionSummaries{}, "week"); err == nil {
		t.Error("NewSummary accepted grouping week")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func ExampleNewSummary() {
	// Two calls of one session, each recorded with its usage.
	at := time.Date(2026, 11, 24, 9, 12, 3, 0, time.UTC)
	s := NewSessionSummary("projects/-src-shop/s.jsonl", "/src/shop")
	for i, u := range []transcript.Usage{{Input: 2, CacheWrite: 12000, Output: 400}, {Input: 1, CacheRead: 12000, CacheWrite: 800, Output: 90}} {
		m := transcript.Message{Role: transcript.RoleAssistant, Model: "claude-sonnet-4-5", Timestamp: at.Add(time.Duration(i) * time.Minute), Usage: &u}
		if err := s.Add(&m); err != nil {
			panic(err)
		}
	}
	if err := s.Finish(&transcript.Transcript{Format: "claude-code"}); err != nil {
		panic(err)
	}
	var ss SessionSummaries
	ss.Add(s)
	sum, err := NewSummary(ss, "session")
	if err != nil {
		panic(err)
	}
	r := sum.Totals.Recorded
	fmt.Println(*sum.Sessions.At(0).Start, sum.Sessions.At(0).Project, r.Calls, r.Input, r.CacheRead, r.CacheWrite, r.Output)
	// Output: 2026-11-24T09:12:03Z /src/shop 2 3 12000 12800 490
}

// TestSessionID reads the session id a file's first lines record (the
// session table's short id is its first 8 characters:
// report.TestTranscriptShortID).
func TestSessionID(t *testing.T) {
	for _, tc := range []struct{ name, head, want string }{
		{"claude code", `{"type":"last-prompt","leafUuid":"x"}` + "\n" + `{"type":"user","sessionId":"74671abd-5a64","cwd":"/src"}` + "\n", "74671abd-5a64"},
		{"codex", `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"019ab6f2-aa","cwd":"/src"}}` + "\n", "019ab6f2-aa"},
		{"gemini cli jsonl", `{"sessionId":"6492bb45-1","projectHash":"ab","kind":"main"}` + "\n", "6492bb45-1"},
		{"none", `{"type":"user","message":{"role":"user","content":"session"}}` + "\n", ""},
		{"cut line", `{"type":"user","sessionId":"abc`, ""},
	} {
		if got := SessionID([]byte(tc.head)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestUnrecordedCalls: a reply that records no usage, in a session whose
// other replies record theirs, is a call counted apart (replay counts it
// too); a session that records no usage at all has none.
func TestUnrecordedCalls(t *testing.T) {
	const (
		user  = `{"type":"user","content":"Hi"}` + "\n"
		reply = `{"type":"assistant","content":"Yes"}` + "\n"
		usage = `{"type":"usage","input_tokens":10,"output_tokens":2}` + "\n"
	)
	for _, tc := range []struct {
		name, in      string
		want, totalIn int
	}{
		{"every call records usage", user + reply + usage + user + reply + usage, 0, 20},
		{"an aborted call without usage", user + reply + usage + user + reply + `{"type":"abort"}` + "\n", 1, 10},
		{"two replies without usage", user + reply + user + reply + usage + user + reply, 2, 10},
		{"no usage at all", user + reply + user + reply, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := transcript.Read(strings.NewReader(tc.in), "s.jsonl", transcript.FormatHarpe)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSessionSummary("s.jsonl", "")
			for i := range ts[0].Messages {
				if err := s.Add(&ts[0].Messages[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Finish(ts[0]); err != nil {
				t.Fatal(err)
			}
			var ss SessionSummaries
			ss.Add(s, s)
			sum, err := NewSummary(ss, "session")
			if err != nil {
				t.Fatal(err)
			}
			got := sum.Sessions.At(0)
			if got.UnrecordedCalls != tc.want || got.Recorded.Input != tc.totalIn {
				t.Errorf("unrecorded %d, input %d; want %d, %d", got.UnrecordedCalls, got.Recorded.Input, tc.want, tc.totalIn)
			}
			if sum.Totals.UnrecordedCalls != 2*tc.want {
				t.Errorf("totals: unrecorded %d, want %d", sum.Totals.UnrecordedCalls, 2*tc.want)
			}
		})
	}
}
