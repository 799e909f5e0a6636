package prices

import (
	"errors"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	_ "github.com/harpe-dev/harpe/pkg/tokenize/cl100k"
	_ "github.com/harpe-dev/harpe/pkg/tokenize/o200k"
)

func TestLookupPreset(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        string // model name, "" for an error
		tokenizer   string
		window      int
	}{
		{"exact", "gpt-4o", "gpt-4o", "o200k_base", 128000},
		{"case", "GPT-4O-Mini", "gpt-4o-mini", "o200k_base", 128000},
		{"old encoding", "gpt-4", "gpt-4", "cl100k_base", 8192},
		{"dated snapshot", "gpt-4o-2024-08-06", "gpt-4o", "o200k_base", 128000},
		{"compact date", "claude-sonnet-4-20250514", "claude-sonnet-4", "estimate", 200000},
		{"latest alias", "claude-3-7-sonnet-latest", "claude-3-7-sonnet", "estimate", 200000},
		{"gemini", "gemini-2.5-pro", "gemini-2.5-pro", "estimate", 1048576},
		{"unknown", "gpt-99", "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Default().Lookup(tc.query)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("Lookup(%q) = %+v, want an error", tc.query, m)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Name != tc.want || m.Tokenizer != tc.tokenizer || m.ContextWindow != tc.window {
				t.Errorf("Lookup(%q) = %s %s %d, want %s %s %d", tc.query, m.Name, m.Tokenizer, m.ContextWindow, tc.want, tc.tokenizer, tc.window)
			}
		})
	}
}

func TestUnknownModelSuggests(t *testing.T) {
	_, err := Default().Lookup("claude-sonet-4")
	var ue *UnknownModelError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want *UnknownModelError", err)
	}
	if len(ue.Suggestions) == 0 || ue.Suggestions[0] != "claude-sonnet-4" {
		t.Errorf("suggestions %v, want claude-sonnet-4 first", ue.Suggestions)
	}
	if !strings.Contains(err.Error(), `unknown model "claude-sonet-4"; did you mean claude-sonnet-4`) {
		t.Errorf("message %q", err)
	}
}

func TestModelsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Presets() {
		if seen[m.Name] {
			t.Errorf("%s listed twice", m.Name)
		}
		seen[m.Name] = true
		if _, err := tokenize.New(m.Tokenizer); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
		if m.ContextWindow <= 0 || m.OutputLimit < 0 || m.OutputLimit > m.ContextWindow {
			t.Errorf("%s: window %d, output %d", m.Name, m.ContextWindow, m.OutputLimit)
		}
		if !strings.HasPrefix(m.Source, "https://") || len(m.AsOf) != len("2025-01-01") {
			t.Errorf("%s: source %q, as of %q", m.Name, m.Source, m.AsOf)
		}
		if m.Provider != "openai" && m.Exact() {
			t.Errorf("%s: only OpenAI models have a public tiktoken encoding", m.Name)
		}
	}
	for _, want := range []string{"gpt-4o", "gpt-4o-mini", "gpt-4.1", "o1", "o3", "o4-mini", "gpt-5", "gpt-4", "gpt-3.5-turbo"} {
		if !seen[want] {
			t.Errorf("%s missing", want)
		}
	}
}

func TestNewCatalog(t *testing.T) {
	cat, err := NewCatalog([]Model{
		{Name: "GPT-4o", ContextWindow: 64000},
		{Name: "local-llm", ContextWindow: 32768, OutputLimit: 4096, Tokenizer: "cl100k_base", Source: "ours"},
		{Name: "bare", ContextWindow: 1000},
	}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := cat.Lookup("gpt-4o")
	if m.ContextWindow != 64000 || m.OutputLimit != 16384 || m.Tokenizer != "o200k_base" || m.Name != "gpt-4o" {
		t.Errorf("override: %+v", m)
	}
	m, _ = cat.Lookup("local-llm")
	if m.Tokenizer != "cl100k_base" || m.OutputLimit != 4096 {
		t.Errorf("added: %+v", m)
	}
	m, _ = cat.Lookup("bare")
	if m.Tokenizer != "estimate" {
		t.Errorf("default tokenizer: %+v", m)
	}
	if n := len(cat.Models()); n != len(Presets())+2 {
		t.Errorf("%d models, want %d", n, len(Presets())+2)
	}
	// The built-in table is untouched.
	if m, _ := Default().Lookup("gpt-4o"); m.ContextWindow != 128000 {
		t.Errorf("built-in changed: %+v", m)
	}
	for _, bad := range [][]Model{
		{{Name: "x"}},
		{{Name: "", ContextWindow: 5}},
		{{Name: "x", ContextWindow: 5, Tokenizer: "p50k"}},
		{{Name: "x", ContextWindow: 5, OutputLimit: -1}},
	} {
		if _, err := NewCatalog(bad, nil, nil); err == nil {
			t.Errorf("NewCatalog(%+v) gave no error", bad)
		}
	}
}
