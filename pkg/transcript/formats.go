package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// Format names a transcript format, as [Transcript.Format], [Read] and
// [Formats] spell it. It is a string underneath, so JSON output spells it
// as before.
type Format string

// Format names.
const (
	FormatHarpe      Format = "harpe"
	FormatOpenAI     Format = "openai"
	FormatAnthropic  Format = "anthropic"
	FormatClaudeCode Format = "claude-code"
	FormatCodex      Format = "codex"
	FormatGemini     Format = "gemini"
	FormatGeminiCLI  Format = "gemini-cli"
	FormatShareGPT   Format = "sharegpt"
	// Formats seen in the wild beside the major ones: SWE-agent
	// trajectories, OpenHands event streams and long-memory chat samples
	// (LoCoMo style).
	FormatSWEAgent   Format = "swe-agent"
	FormatOpenHands  Format = "openhands"
	FormatLongMemory Format = "long-memory"
	// FormatVCR is a VCR cassette (YAML): vcrpy, pydantic-ai, LangChain.
	FormatVCR Format = "vcr"
	// FormatHAR is an HTTP Archive 1.2 (JSON), as browsers and proxies
	// export it.
	FormatHAR Format = "har"
)

// format is one transcript format: how to tell it and how to read it.
// Each format's value sits in the file that reads it; [formats] lists
// them all, and detection, [Formats], --input-format and the readers all
// go through that list.
//
// Detection asks every format and takes the one that claims the input.
// The sniffs are written so that at most one format claims any input
// (where two formats share keys, the more specific one's sniff is
// excluded in the other's), so the order of the list does not change what
// is detected; TestSniffsExclusive checks it on every sample.
type format struct {
	name Format
	// about says who writes the format, in what files and where.
	about about
	// keys are the keys of which a first top-level object this format
	// claims (a JSON Lines record or a JSON document) has at least one,
	// itemKeys those of the first element of a top-level array it claims:
	// an input whose first value has none of any format's is not read
	// further (see [mayBeTranscript]). A key named by the sniff (line,
	// doc) belongs here.
	keys, itemKeys []string
	// layout tells, from the parts of a path (split at its slashes), that
	// the path is a session file where the harness keeps its sessions
	// (see [LayoutFormat]); nil for a format no harness keeps so.
	layout func(parts []string) bool
	// exts are the file name endings the format comes in: a directory
	// walk reads the files ending in one of any format's ([Extensions]).
	exts []string
	// archive marks a format that holds whole archives or agent runs:
	// its keys are specific, so the chat formats, whose keys it may
	// share, give way to it (see [archiveDoc]).
	archive bool
	// line tells, from the first line of the input (a JSON object), that
	// the input is this format's JSON Lines; nil when the format has none.
	line func(obj map[string]json.RawMessage) bool
	// doc tells, from a probe of a JSON document, that the document is
	// this format; nil when the format has no JSON document form.
	doc func(p *docProbe) bool
	// lines reads the format's JSON Lines; nil when it has none.
	lines func(d *lineDecoder, b *builder) error
	// linesWhen tells, for a format with both shapes read by name, that an
	// input whose first line is obj is its JSON Lines (nil: always).
	linesWhen func(obj map[string]json.RawMessage) bool
	// document reads one JSON document held whole; nil when the format
	// has no document form or reads it with stream.
	document func(v json.RawMessage, name string) ([]*Transcript, error)
	// stream reads one JSON document element by element from a
	// [docStream], keeping only the element being read (see stream.go);
	// documents held in memory (recordings, a sequence of documents) are
	// read through it too, unless the format also has document, which
	// then reads those (and what stream leaves with errStreamFallback).
	stream func(s *docStream) ([]*Transcript, error)
	// text tells, from the start of an input that is not JSON (at least
	// its first line that is not blank), that the input is this format's:
	// a format that is no JSON (a YAML cassette); nil for the JSON formats.
	text func(data []byte) bool
	// readText reads an input of a text format from r (which starts at
	// the input's start) whole: size is the input's size when known, -1
	// otherwise. data is what it held; nil when it failed before holding
	// the input (too large, not UTF-8), and err is then the error.
	readText func(r io.Reader, size int64, name string) (data []byte, ts []*Transcript, err error)
	// errorsNameFound: an error reading an input named as this format
	// gives way to the format the input reads as, when it reads as
	// another (a HAR's reader fails on any JSON without its log, so its
	// own errors say little of such an input).
	errorsNameFound bool
}

// readsLines reports whether the format reads an input as JSON Lines when
// the record that told it (or, named, its first record) is obj: it has
// JSON Lines, and when it has documents too, linesWhen takes obj.
func (f *format) readsLines(obj map[string]json.RawMessage) bool {
	return f.lines != nil && (f.linesWhen == nil || f.linesWhen(obj))
}

// about is what [FormatInfo] says of a format, beside its name.
type about struct {
	harness string
	files   string
	dirs    []string
}

// FormatInfo says what a format is: for `harpe formats` and help.
type FormatInfo struct {
	Name Format `json:"name"`
	// Harness is what writes it: a harness, an API's clients, a tool.
	Harness string `json:"harness"`
	// Files are the kinds of file it comes in.
	Files string `json:"files"`
	// Dirs are where the harness keeps its sessions, with "~" and
	// "$VAR" as written (a path under $VAR counts only when VAR is
	// set); none for formats no harness keeps in a directory of its own.
	Dirs []string `json:"dirs"`
}

// FormatInfos describes every format, in the order of [Formats].
func FormatInfos() []FormatInfo {
	out := make([]FormatInfo, len(formats))
	for i, f := range formats {
		out[i] = FormatInfo{Name: f.name, Harness: f.about.harness, Files: f.about.files, Dirs: append([]string{}, f.about.dirs...)}
	}
	return out
}

// formats is every format, in the order [Formats] lists them (the order
// of error messages and help). It is set in init, since the readers of
// recordings read documents of other formats through it.
var formats []*format

func init() {
	formats = []*format{
		&harpeFormat,
		&claudeCodeFormat,
		&codexFormat,
		&openAIFormat,
		&anthropicFormat,
		&geminiFormat,
		&geminiCLIFormat,
		&copilotFormat,
		&openCodeFormat,
		&shareGPTFormat,
		&sweAgentFormat,
		&openHandsFormat,
		&longMemoryFormat,
		&vcrFormat,
		&harFormat,
	}
	startKeys, elementKeys = keySets(formats)
}

// startKeys are the keys of a first top-level object that some format
// needs: a JSONL record's (see [detectLine]) or a JSON document's (see
// [detectDocument]); elementKeys those of the first element of a
// top-level array. Both are every format's keys (itemKeys), gathered.
var startKeys, elementKeys map[string]bool

func keySets(fs []*format) (keys, itemKeys map[string]bool) {
	keys, itemKeys = map[string]bool{}, map[string]bool{}
	for _, f := range fs {
		for _, k := range f.keys {
			keys[k] = true
		}
		for _, k := range f.itemKeys {
			itemKeys[k] = true
		}
	}
	return keys, itemKeys
}

// Extensions lists the file name endings of every format, each once, in
// the order of [Formats]: a directory walk reads the files ending in one
// of them.
func Extensions() []string {
	var out []string
	for _, f := range formats {
		for _, e := range f.exts {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// Formats lists the formats [Read] accepts, in a fixed order.
func Formats() []Format {
	out := make([]Format, len(formats))
	for i, f := range formats {
		out[i] = f.name
	}
	return out
}

// FormatNames is [Formats] as strings, for flag values and completion.
func FormatNames() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f.name)
	}
	return names
}

// FormatList is [Formats] joined by ", ", for help and error messages.
func FormatList() string { return strings.Join(FormatNames(), ", ") }

// ParseFormat returns the format named s: one of [Formats], or "" for
// detection. Any other name is an error listing the valid ones.
func ParseFormat(s string) (Format, error) {
	if s == "" || formatOf(Format(s)) != nil {
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown transcript format %q; valid: %s", s, FormatList())
}

// formatOf is the format named name, nil for none.
func formatOf(name Format) *format {
	for _, f := range formats {
		if f.name == name {
			return f
		}
	}
	return nil
}

// detectLine names the format of an input whose first line is the JSON
// object obj: the JSON Lines format that claims it, else the document
// format that claims obj as a whole document, else "".
func detectLine(obj map[string]json.RawMessage) Format {
	if f := lineFormat(obj); f != "" {
		return f
	}
	return detectDocument(mustRaw(obj))
}

// Detection looks past the records no format claims: a session log may
// open with records of types its reader does not know (Claude Code
// 2.1.177 opens a session with "last-prompt", "mode" and
// "permission-mode" records, none of which says it is Claude Code's).
// When no format claims the first line, the format is the one whose line
// sniff claims the first record some sniff claims, among the first
// headLines non-blank lines of the input that lie whole within its first
// headBytes bytes. Past that bound an input none claims is not a
// transcript; a directory walk then reads a file under a harness's own
// directory as that harness's format (see the cmd package).
const (
	headLines = 100
	headBytes = 1 << 20
)

// headFormat names the format of an input whose head (the first bytes,
// its first line included) is data, when the first line is claimed by
// no format: the format whose line sniff claims the first later record
// that one claims, with that record; "" when none within the bound does.
// A line that is not a JSON object (a line cut by the bound, a broken
// line) is passed over like an unclaimed record.
func headFormat(data []byte) (Format, map[string]json.RawMessage) {
	data = data[:min(len(data), headBytes)]
	for n := 0; n < headLines && len(data) > 0; {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data)
		}
		line := bytes.TrimSpace(bytes.TrimPrefix(data[:i], bom))
		data = data[min(i+1, len(data)):]
		if len(line) == 0 {
			continue
		}
		n++
		if line[0] != '{' {
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(line, &obj) != nil {
			continue
		}
		if f := lineFormat(obj); f != "" {
			return f, obj
		}
	}
	return "", nil
}

// lineFormat is the format whose line sniff claims obj, "" when none
// does.
func lineFormat(obj map[string]json.RawMessage) Format {
	for _, f := range formats {
		if f.line != nil && f.line(obj) {
			return f.name
		}
	}
	return ""
}

// textFormat is the text format (see format.text) of an input whose head
// (its start, up to its first line that is not blank) is head, named
// format ("" to detect it): the one named, or when detecting and the
// first line is no JSON value (lineIsValue false), the one that claims
// head; nil for none.
func textFormat(format Format, lineIsValue bool, head []byte) *format {
	if format != "" {
		if f := formatOf(format); f != nil && f.text != nil {
			return f
		}
		return nil
	}
	if lineIsValue {
		return nil
	}
	return claimsText(head)
}

// claimsText is the text format that claims data, nil for none.
func claimsText(data []byte) *format {
	for _, f := range formats {
		if f.text != nil && f.text(data) {
			return f
		}
	}
	return nil
}

// givesWay reports whether err, from reading an input named as format,
// gives way to the format the input reads as: when the named format's
// frame is missing altogether (an error placed nowhere inside the input),
// or for any error of a format whose errors name the format found
// (errorsNameFound).
func givesWay(format Format, err error) bool {
	if f := formatOf(format); f != nil && f.errorsNameFound {
		return true
	}
	var de *Error
	return errors.As(err, &de) && de.Path == "" && de.Line == 0
}

// detectDocument names the format of one JSON document, or "".
func detectDocument(v json.RawMessage) Format {
	p := probeDocument(v)
	if p == nil {
		return ""
	}
	return p.detect()
}

// detect names the format that claims the probed document, or "".
func (p *docProbe) detect() Format {
	for _, f := range formats {
		if f.doc != nil && f.doc(p) {
			return f.name
		}
	}
	return ""
}

// archiveDoc reports whether one of the formats that hold whole archives
// or agent runs (those marked archive: HAR, ShareGPT, SWE-agent,
// OpenHands, long-memory, OpenCode) claims the document: their keys are
// specific, so the chat formats (Gemini, Codex, OpenAI, Anthropic, Gemini
// CLI), whose keys they may share, give way to them.
func archiveDoc(p *docProbe) bool {
	for _, f := range formats {
		if f.archive && f.doc(p) {
			return true
		}
	}
	return false
}

// decodeDocument reads the document v, held in memory, as format.
func decodeDocument(v json.RawMessage, name string, format Format) ([]*Transcript, error) {
	f := formatOf(format)
	switch {
	case f != nil && f.stream != nil && f.document == nil:
		s, err := openDocStream(bytes.NewReader(v), name)
		if err != nil {
			return nil, &Error{Name: name, Err: fmt.Errorf("a %s transcript is a JSON object or array", format)}
		}
		return f.stream(s)
	case f != nil && f.document != nil:
		return f.document(v, name)
	}
	// A JSONL format named explicitly but given a document.
	return nil, &Error{Name: name, Err: fmt.Errorf("a %s transcript is JSON Lines, one object a line; this input is one JSON %s", format, jsonl.Kind(v))}
}

// one adapts a reader of one transcript per document.
func one(read func(v json.RawMessage, name string) (*Transcript, error)) func(json.RawMessage, string) ([]*Transcript, error) {
	return func(v json.RawMessage, name string) ([]*Transcript, error) {
		t, err := read(v, name)
		if err != nil {
			return nil, err
		}
		return []*Transcript{t}, nil
	}
}
