package transcript

import "encoding/json"

// Format names, as [Transcript.Format] and [Read] spell them.
const (
	FormatHarpe      = "harpe"
	FormatOpenAI     = "openai"
	FormatAnthropic  = "anthropic"
	FormatClaudeCode = "claude-code"
	FormatCodex      = "codex"
	FormatGemini     = "gemini"
	FormatGeminiCLI  = "gemini-cli"
	FormatShareGPT   = "sharegpt"
	// Formats seen in the wild beside the major ones: SWE-agent
	// trajectories, OpenHands event streams and long-memory chat samples
	// (LoCoMo style).
	FormatSWEAgent   = "swe-agent"
	FormatOpenHands  = "openhands"
	FormatLongMemory = "long-memory"
	// FormatVCR is a VCR cassette (YAML): vcrpy, pydantic-ai, LangChain.
	FormatVCR = "vcr"
	// FormatHAR is an HTTP Archive 1.2 (JSON), as browsers and proxies
	// export it.
	FormatHAR = "har"
)

// format says how one transcript format is read: line by line (JSONL),
// as a JSON document, or both (OpenAI, Anthropic and Codex write both
// shapes). VCR cassettes (YAML) are read apart, before JSON.
type format struct {
	name     string
	lines    func(d *lineDecoder, b *builder) error
	document func(v json.RawMessage, name string) ([]*Transcript, error)
}

// formats is every format, in the order detection tries them: [Formats],
// --input-format's values and the readers all come from it. Detection
// itself (which fields tell a format) is in detectLine and
// detectDocument. It is set in init, since the readers of recordings read
// documents of other formats through it.
var formats []format

func init() { formats = formatList() }

func formatList() []format {
	return []format{
		{name: FormatHarpe, lines: readHarpe},
		{name: FormatClaudeCode, lines: readClaudeCode},
		{name: FormatCodex, lines: readCodex, document: one(readResponsesDoc)},
		{name: FormatOpenAI, lines: messageLines(FormatOpenAI), document: messagesDoc(FormatOpenAI)},
		{name: FormatAnthropic, lines: messageLines(FormatAnthropic), document: messagesDoc(FormatAnthropic)},
		{name: FormatGemini, document: one(readGemini)},
		{name: FormatGeminiCLI, document: one(readGeminiCLI)},
		{name: FormatShareGPT, document: readShareGPT},
		{name: FormatSWEAgent, document: one(readSWEAgent)},
		{name: FormatOpenHands, document: one(readOpenHands)},
		{name: FormatLongMemory, document: readLongMemory},
		{name: FormatVCR},
		{name: FormatHAR, document: readHAR},
	}
}

// Formats lists the format names [Read] accepts, in the order detection
// tries them.
func Formats() []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.name
	}
	return out
}

// formatOf is the format named name, nil for none.
func formatOf(name string) *format {
	for i := range formats {
		if formats[i].name == name {
			return &formats[i]
		}
	}
	return nil
}

func validFormat(name string) bool { return formatOf(name) != nil }

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

func messagesDoc(format string) func(json.RawMessage, string) ([]*Transcript, error) {
	return one(func(v json.RawMessage, name string) (*Transcript, error) { return readMessagesDoc(v, name, format) })
}

func messageLines(format string) func(*lineDecoder, *builder) error {
	return func(d *lineDecoder, b *builder) error { return readMessageLines(d, b, format) }
}
