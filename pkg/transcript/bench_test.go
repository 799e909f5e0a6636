package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/pkg/tokenize"
)

func benchRead(b *testing.B, file string) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "transcripts", file))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), file, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadHarpe(b *testing.B)      { benchRead(b, "harpe/long.jsonl") }
func BenchmarkReadOpenAI(b *testing.B)     { benchRead(b, "openai/long.jsonl") }
func BenchmarkReadAnthropic(b *testing.B)  { benchRead(b, "anthropic/long.json") }
func BenchmarkReadClaudeCode(b *testing.B) { benchRead(b, "claude-code/long.jsonl") }
func BenchmarkReadCodex(b *testing.B)      { benchRead(b, "codex/long.jsonl") }
func BenchmarkReadGeminiCLI(b *testing.B)  { benchRead(b, "gemini-cli/long.json") }

func BenchmarkBilledTokens(b *testing.B) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "transcripts", "claude-code", "long.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	ts, err := Read(f, "long", "")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		BilledTokens(ts[0], tokenize.Estimate)
	}
}

func BenchmarkCountBilled(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "transcripts", "claude-code", "long.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CountBilled(context.Background(), bytes.NewReader(data), "long", "", tokenize.Estimate); err != nil {
			b.Fatal(err)
		}
	}
}

// benchReadBoth reads file with the hand decoders on and, as a reference,
// with encoding/json alone.
func benchReadBoth(b *testing.B, file string) {
	b.Run("hand", func(b *testing.B) { benchReadPath(b, file) })
	b.Run("encoding-json", func(b *testing.B) { withJSONOnly(func() { benchReadPath(b, file) }) })
}

func benchReadPath(b *testing.B, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), path, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadClaudeCodeAgent: the agent-loop session of the many-sessions
// benchmark (2.3 MB, 230 calls, tool results the bulk of it).
func BenchmarkReadClaudeCodeAgent(b *testing.B) {
	benchReadBoth(b, filepath.Join("..", "..", "testdata", "agent", "claude", "projects", "-src-shop", "7c1e5a9d-3b2f-4e8a-9d61-0f4b2c8e6a17.jsonl"))
}

// BenchmarkReadClaudeCodeChat: a generated 60-turn chat session.
func BenchmarkReadClaudeCodeChat(b *testing.B) {
	benchReadBoth(b, filepath.Join("..", "..", "testdata", "transcripts", "claude-code", "long.jsonl"))
}

// BenchmarkReadAnthropicDoc: an Anthropic messages document, whose content
// blocks go through the same hand decoder.
func BenchmarkReadAnthropicDoc(b *testing.B) {
	benchReadBoth(b, filepath.Join("..", "..", "testdata", "transcripts", "anthropic", "long.json"))
}

// BenchmarkReadClaudeCodeToolUseResult: the agent-loop session with each
// tool result also written as the record's toolUseResult, as real Claude
// Code sessions write it (the file grows to about 4 MB); the hand decoder
// checks and skips the copy.
func BenchmarkReadClaudeCodeToolUseResult(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "agent", "claude", "projects", "-src-shop", "7c1e5a9d-3b2f-4e8a-9d61-0f4b2c8e6a17.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	for line := range bytes.Lines(data) {
		var rec struct {
			Message struct {
				Content []struct {
					Content json.RawMessage `json:"content"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &rec) == nil && len(rec.Message.Content) > 0 && rec.Message.Content[0].Content != nil {
			stdout := []byte(`{"stdout":` + string(rec.Message.Content[0].Content) + `,"stderr":"","interrupted":false}`)
			if line, err = jsonl.SetField(bytes.TrimSuffix(line, []byte("\n")), "toolUseResult", stdout); err != nil {
				b.Fatal(err)
			}
			line = append(line, '\n')
		}
		out.Write(line)
	}
	path := filepath.Join(b.TempDir(), "tool-use-result.jsonl")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	benchReadBoth(b, path)
}
