package usage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Summary is a set of sessions in one line each, or grouped: `harpe
// transcript` writes it. Its JSON field names are a stable contract.
type Summary struct {
	// By is how the rows are grouped: "session" (one row a conversation),
	// "day", "project" or "model".
	By string `json:"by"`
	// Sessions are the conversations, by start time (those with no
	// timestamp last, in input order); set when By is "session". Each
	// is built from its row when asked for, and written so.
	Sessions SessionSummaries `json:"sessions,omitempty"`
	// Groups are the rows of the other groupings, sorted by key.
	Groups []*SummaryGroup `json:"groups,omitempty"`
	// Totals sums every session.
	Totals SummaryGroup `json:"totals"`
	// Skipped are the files the report leaves out, each with why (a
	// directory walk's files that are no transcript, unreadable, empty),
	// as the caller that read them sets it.
	Skipped []SkippedFile `json:"skipped,omitempty"`
	// BrokenLines counts the lines of JSON Lines session logs that were
	// not JSON and were skipped; BrokenAt places those named in warnings
	// (the first 10 of each file), "file:line:column". The caller sets
	// them (see [Collected]).
	BrokenLines int      `json:"broken_lines,omitempty"`
	BrokenAt    []string `json:"broken_at,omitempty"`
}

// SkippedFile is a file left out of a report, and why.
type SkippedFile struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// SessionSummary is one conversation's recorded usage in one line.
type SessionSummary struct {
	File         string `json:"file"`
	Conversation string `json:"conversation,omitempty"`
	// Session is the session id the file records (Claude Code and Gemini
	// CLI "sessionId", a Codex rollout's session_meta id), "" when none:
	// it tells two sessions of one project apart.
	Session string `json:"session,omitempty"`
	// Format is the harness or API that wrote it ("claude-code", "codex").
	Format string `json:"format"`
	// Project is the working directory the session recorded (Claude Code
	// and Codex write it), else the directory of the file.
	Project string `json:"project"`
	// Start and End are the first and last message timestamps, RFC 3339
	// in UTC; null when the format records none.
	Start *string `json:"start"`
	End   *string `json:"end"`
	// Models are the models that answered, sorted.
	Models []string `json:"models"`
	// Messages counts the messages; a response written as several
	// records ([transcript.Message.Call]) counts once.
	Messages int `json:"messages"`
	// Recorded sums the provider's usage over every call (calls not part
	// of the conversation, [transcript.Transcript.Unsent], too); zero when the format
	// records none.
	Recorded RecordedUsage `json:"recorded"`
	// CostUSD is what the recorded calls cost, each priced from Catalog
	// at its own date and size ([CallCost]), summed; null when there is
	// no catalog or no call records its model. Models without prices count 0 and are
	// named in UnpricedModels.
	CostUSD        *float64 `json:"cost_usd"`
	UnpricedModels []string `json:"unpriced_models,omitempty"`
	// UnrecordedCalls counts the model calls (replies, those of one
	// response once) that record no usage in a session whose other
	// replies record theirs: a call sent and then aborted before the
	// harness wrote its usage. They are calls, as replay counts them, with
	// no tokens in Recorded and nothing in CostUSD. Left out when none.
	UnrecordedCalls int `json:"unrecorded_calls,omitempty"`
	// RepeatedResponses counts the responses of this session that a
	// session before it in the run records too (the same message.id and
	// requestId): billed there, left out of Recorded and CostUSD here.
	// RepeatedUSD is what the priced ones cost (null when none has a price: never a silent 0). Both are
	// left out when there are none; see [SessionSummaries].
	RepeatedResponses int      `json:"repeated_responses,omitempty"`
	RepeatedUSD       *float64 `json:"repeated_usd,omitempty"`

	// Catalog, when set before messages are added, prices each recorded
	// call; nil leaves CostUSD null.
	Catalog *prices.Catalog `json:"-"`

	usage UsageTally

	start, end time.Time
	days       map[string]*UsageTally // UTC day → that day's calls
	// responses are the calls that name their response, kept for
	// [SessionSummaries] to count each response once in a run.
	responses keyedCalls
	repeated  repeats
	// open is what only adding messages needs, dropped by Finish: a
	// report of many conversations keeps each summary to its end.
	open *openSummary
}

// openSummary is the part of a [SessionSummary] that lives while its
// messages are added.
type openSummary struct {
	end      time.Time
	lastCall string
	// The replies: the latest one's call, whether it records usage, how
	// many earlier ones record none, whether any records some.
	lastReply          string
	inReply, replyUsed bool
	noUsage            int
	someUsage          bool
}

// reply counts m when it is a reply (an assistant message that is not
// the harness's; those of one response once), as replay counts calls.
func (o *openSummary) reply(m *transcript.Message) {
	if m.Role != transcript.RoleAssistant || m.Meta {
		return
	}
	if !o.inReply || m.Call == "" || m.Call != o.lastReply {
		o.closeReply()
		o.inReply, o.replyUsed = true, false
	}
	o.lastReply = m.Call
	if m.Usage != nil {
		o.replyUsed, o.someUsage = true, true
	}
}

// closeReply ends the latest reply, counting it when it records no usage.
func (o *openSummary) closeReply() {
	if o.inReply && !o.replyUsed {
		o.noUsage++
	}
	o.inReply = false
}

// SummaryGroup is the figures of a set of sessions: a row of a grouped
// [Summary], or its totals.
type SummaryGroup struct {
	// Key is the day (YYYY-MM-DD, UTC), project or model; "" for totals.
	Key      string `json:"key,omitempty"`
	Sessions int    `json:"sessions"`
	// Models are the models that answered, sorted.
	Models   []string      `json:"models"`
	Recorded RecordedUsage `json:"recorded"`
	// CostUSD sums the cost of the group's calls, as
	// [SessionSummary.CostUSD].
	CostUSD        *float64 `json:"cost_usd"`
	UnpricedModels []string `json:"unpriced_models,omitempty"`
	// UnrecordedCalls sums the sessions' [SessionSummary.UnrecordedCalls]
	// (set in the totals only; left out when there are none).
	UnrecordedCalls int `json:"unrecorded_calls,omitempty"`
	// RepeatedResponses and RepeatedUSD sum the sessions' (set in the
	// totals only; left out when there are none).
	RepeatedResponses int      `json:"repeated_responses,omitempty"`
	RepeatedUSD       *float64 `json:"repeated_usd,omitempty"`

	usage    UsageTally
	repeated repeats
}

// SummaryGroupings are the values [NewSummary] takes for by.
var SummaryGroupings = []string{"session", "day", "project", "model"}

// NewSessionSummary starts the summary of one conversation read from
// file; project is where it ran ([ProjectDir], or "" for the file's
// directory). Feed it every message in order with [SessionSummary.Add],
// then call [SessionSummary.Finish].
func NewSessionSummary(file, project string) *SessionSummary {
	if project == "" {
		project = fileDir(file)
	}
	return &SessionSummary{File: file, Project: project, open: &openSummary{}}
}

// fileDir is the directory part of a slash- or backslash-separated name.
func fileDir(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[:i]
	}
	return "."
}

// Add counts one message. A total past the largest int is an
// [*engine.TokenOverflowError].
func (s *SessionSummary) Add(m *transcript.Message) error {
	if s.open == nil {
		s.open = &openSummary{} // a SessionSummary{} of its own
	}
	o := s.open
	if m.Call == "" || m.Call != o.lastCall {
		s.Messages++
	}
	o.lastCall = m.Call
	o.reply(m)
	if !m.Timestamp.IsZero() {
		ts := m.Timestamp.UTC()
		if s.start.IsZero() || ts.Before(s.start) {
			s.start = ts
		}
		if ts.After(o.end) {
			o.end = ts
		}
	}
	if m.Usage == nil {
		return nil
	}
	c := priceCall(s.Catalog, m.Model, m.Timestamp, m.Usage)
	if err := s.usage.addCall(m.Model, m.Usage, c); err != nil {
		return err
	}
	day := dayOf(m.Timestamp) // "": a call with no timestamp counts on the session's first day
	if err := s.day(day).addCall(m.Model, m.Usage, c); err != nil {
		return err
	}
	s.keep(m.Response, m.Model, day, m.Usage, c)
	return nil
}

// day is the tally of one UTC day's calls ("": calls with no timestamp),
// begun when first asked for: a session without usage keeps no map (a
// file of 200,000 ShareGPT conversations kept 200,000 empty ones).
func (s *SessionSummary) day(key string) *UsageTally {
	if s.days == nil {
		s.days = map[string]*UsageTally{}
	}
	d := s.days[key]
	if d == nil {
		d = &UsageTally{}
		s.days[key] = d
	}
	return d
}

// Finish adds t's header: its format and conversation id, and the calls
// it records outside the conversation; then prices the session.
func (s *SessionSummary) Finish(t *transcript.Transcript) error {
	s.Format, s.Conversation = string(t.Format), t.ID
	if o := s.open; o != nil {
		o.closeReply()
		if o.someUsage {
			s.UnrecordedCalls = o.noUsage
		}
	}
	if err := s.usage.AddUnsent(t, s.Catalog); err != nil {
		return err
	}
	if len(t.Unsent) > 0 {
		if err := s.day("").AddUnsent(t, s.Catalog); err != nil {
			return err
		}
		s.keepUnsent(t)
	}
	if !s.start.IsZero() {
		s.end = s.start
		if s.open != nil {
			s.end = s.open.end
		}
		s.undatedTo(s.start.Format(time.DateOnly))
		if d := s.days[""]; d != nil {
			delete(s.days, "")
			if err := s.day(s.start.Format(time.DateOnly)).addTally(d); err != nil {
				return err
			}
		}
	}
	s.open = nil
	s.settle()
	return nil
}

// settle fills the exported fields that follow from the unexported ones
// of a finished summary: start and end, usage, models and cost.
func (s *SessionSummary) settle() {
	s.Start, s.End = nil, nil
	if !s.start.IsZero() {
		a, b := s.start.Format(time.RFC3339), s.end.Format(time.RFC3339)
		s.Start, s.End = &a, &b
	}
	s.Recorded = RecordedUsage{}
	if s.usage.Total != nil {
		s.Recorded = *s.usage.Total
	}
	s.Models = tallyModels(&s.usage)
	s.CostUSD, s.UnpricedModels = s.usage.Cost()
	s.RepeatedResponses, s.RepeatedUSD = s.repeated.n, s.repeated.cost()
}

// tallyModels is the models of t, sorted, without "" (calls that record
// none); never nil.
func tallyModels(t *UsageTally) []string {
	models, _ := t.ByModel()
	models = slices.DeleteFunc(models, func(m string) bool { return m == "" })
	if models == nil {
		models = []string{}
	}
	return models
}

// NewSummary sums finished session summaries, grouped by one of
// [SummaryGroupings]. Sessions are ordered by start time; totals past the
// largest int are an [*engine.TokenOverflowError].
func NewSummary(sessions SessionSummaries, by string) (*Summary, error) {
	if !slices.Contains(SummaryGroupings, by) {
		return nil, fmt.Errorf("unknown grouping %q; valid: %s", by, strings.Join(SummaryGroupings, ", "))
	}
	sessions.countOnce()
	ss := sessions.byStart()
	sum := &Summary{By: by}
	groups := map[string]*SummaryGroup{}
	group := func(key string) *SummaryGroup {
		g := groups[key]
		if g == nil {
			g = &SummaryGroup{Key: key}
			groups[key] = g
		}
		return g
	}
	for i := range ss.Len() {
		r := ss.row(i)
		sum.Totals.Sessions++
		usage, days := r.tallies()
		if err := sum.Totals.usage.addTally(usage); err != nil {
			return nil, err
		}
		if r.tally != nil {
			sum.Totals.repeated.add(r.tally.repeated)
			sum.Totals.UnrecordedCalls += r.tally.unrecorded
		}
		switch by {
		case "project":
			g := group(r.origin.project)
			g.Sessions++
			if err := g.usage.addTally(usage); err != nil {
				return nil, err
			}
		case "day":
			for day, d := range days {
				if day == "" {
					day = "-" // no timestamp at all
				}
				g := group(day)
				g.Sessions++
				if err := g.usage.addTally(d); err != nil {
					return nil, err
				}
			}
		case "model":
			for _, m := range usage.models() {
				key := m
				if key == "" {
					key = "-" // calls that record no model
				}
				g := group(key)
				g.Sessions++
				if err := g.usage.addTally(usage.only(m)); err != nil {
					return nil, err
				}
			}
		}
	}
	if by == "session" {
		sum.Sessions = ss
	} else {
		keys := make([]string, 0, len(groups))
		for k := range groups {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		sum.Groups = []*SummaryGroup{}
		for _, k := range keys {
			g := groups[k]
			g.finish()
			sum.Groups = append(sum.Groups, g)
		}
	}
	sum.Totals.finish()
	return sum, nil
}

func (g *SummaryGroup) finish() {
	if g.usage.Total != nil {
		g.Recorded = *g.usage.Total
	}
	g.Models = tallyModels(&g.usage)
	g.CostUSD, g.UnpricedModels = g.usage.Cost()
	g.RepeatedResponses, g.RepeatedUSD = g.repeated.n, g.repeated.cost()
}

// Unpriced is what the totals' cost leaves out for want of a price: the
// calls and tokens of each model ([UsageTally.Unpriced]).
func (s *Summary) Unpriced() []UnpricedCalls { return s.Totals.usage.Unpriced() }

// projectHeadLines is how many lines [ProjectDir] looks at.
const projectHeadLines = 64

// ProjectDir returns the working directory a session recorded in its
// first lines: Claude Code writes "cwd" on each record, Codex in its
// session_meta payload. head is the start of the file; "" when no line
// there names one.
func ProjectDir(head []byte) string {
	return headField(head, `"cwd"`, func(rec *headRecord) string { return cmpOr(rec.Cwd, rec.Payload.Cwd) })
}

// SessionID is the session id a session file records in its first lines:
// Claude Code's and Gemini CLI's "sessionId", the "id" of a Codex
// rollout's session_meta; "" when head names none.
func SessionID(head []byte) string {
	return headField(head, `ession`, func(rec *headRecord) string {
		if rec.Type == "session_meta" {
			return rec.Payload.ID
		}
		return rec.SessionID
	})
}

// headRecord is what ProjectDir and SessionID read of a record.
type headRecord struct {
	Type      string `json:"type"`
	Cwd       string `json:"cwd"`
	SessionID string `json:"sessionId"`
	Payload   struct {
		Cwd string `json:"cwd"`
		ID  string `json:"id"`
	} `json:"payload"`
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// headField is the first non-empty value get gives of a record among the
// first lines of head that hold mark.
func headField(head []byte, mark string, get func(*headRecord) string) string {
	sc := bufio.NewScanner(bytes.NewReader(head))
	sc.Buffer(make([]byte, 0, 64<<10), len(head)+1)
	for n := 0; n < projectHeadLines && sc.Scan(); n++ {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(mark)) {
			continue
		}
		var rec headRecord
		if json.Unmarshal(line, &rec) != nil {
			continue // a record cut off at the end of head, or not JSON
		}
		if v := get(&rec); v != "" {
			return v
		}
	}
	return ""
}
