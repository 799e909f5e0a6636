package prices

import "strings"

// Hugging Face repositories of the open model families, by preset name:
// their tokenizer.json is what the model counts with, when the Hugging
// Face cache holds it (see package github.com/harpe-dev/harpe/pkg/tokenize/hf).
// The repositories were looked up on huggingface.co on 2026-12-01; any
// repository of the same family has the same tokenizer.json.
var hfRepos = map[string]string{
	"llama-3.3-70b":   "meta-llama/Llama-3.3-70B-Instruct",
	"llama-3.1-405b":  "meta-llama/Llama-3.1-405B-Instruct",
	"llama-3.1-8b":    "meta-llama/Llama-3.1-8B-Instruct",
	"mistral-large":   "mistralai/Mistral-Large-Instruct-2411",
	"mistral-small":   "mistralai/Mistral-Small-24B-Instruct-2501",
	"codestral":       "mistralai/Codestral-22B-v0.1",
	"qwen3-8b":        "Qwen/Qwen3-8B",
	"qwen3-32b":       "Qwen/Qwen3-32B",
	"qwen3-235b-a22b": "Qwen/Qwen3-235B-A22B",
	"deepseek-v3":     "deepseek-ai/DeepSeek-V3",
	"gemma-3-27b":     "google/gemma-3-27b-it",
	"gemma-3-12b":     "google/gemma-3-12b-it",
	"gpt-oss-120b":    "openai/gpt-oss-120b",
	"gpt-oss-20b":     "openai/gpt-oss-20b",
}

// HFRepo returns the Hugging Face repository ("Qwen/Qwen3-8B") whose
// tokenizer.json counts the model's tokens exactly, or "" when harpe
// names none for it. Lookup is by the model's name, ignoring case.
func (m Model) HFRepo() string { return hfRepos[strings.ToLower(m.Name)] }

// Sources of the open presets' windows.
const (
	srcQwen3    = "https://huggingface.co/Qwen/Qwen3-8B"
	srcDeepSeek = "https://api-docs.deepseek.com/quick_start/pricing"
	srcGemma3   = "https://ai.google.dev/gemma/docs/core"
	srcGptOss   = "https://huggingface.co/openai/gpt-oss-120b"
)

// openPresets are the open models that are presets only for their
// tokenizer.json: windows as the model cards give them (Qwen3: 32,768
// natively; gpt-oss: 131,072), no prices (they run locally or at many
// hosts' prices). They count with the estimate unless the Hugging Face
// cache has their tokenizer.
var openPresets = []Model{
	{Name: "qwen3-235b-a22b", Provider: "alibaba", ContextWindow: 32768, Tokenizer: "estimate", Source: "https://huggingface.co/Qwen/Qwen3-235B-A22B", AsOf: "2025-04-29"},
	{Name: "qwen3-32b", Provider: "alibaba", ContextWindow: 32768, Tokenizer: "estimate", Source: "https://huggingface.co/Qwen/Qwen3-32B", AsOf: "2025-04-29"},
	{Name: "qwen3-8b", Provider: "alibaba", ContextWindow: 32768, Tokenizer: "estimate", Source: srcQwen3, AsOf: "2025-04-29"},
	{Name: "deepseek-v3", Provider: "deepseek", ContextWindow: 131072, Tokenizer: "estimate", Source: srcDeepSeek, AsOf: "2025-03-24"},
	{Name: "gemma-3-27b", Provider: "google", ContextWindow: 131072, Tokenizer: "estimate", Source: srcGemma3, AsOf: "2025-03-12"},
	{Name: "gemma-3-12b", Provider: "google", ContextWindow: 131072, Tokenizer: "estimate", Source: srcGemma3, AsOf: "2025-03-12"},
	{Name: "gpt-oss-120b", Provider: "openai", ContextWindow: 131072, Tokenizer: "estimate", Source: srcGptOss, AsOf: "2025-08-05"},
	{Name: "gpt-oss-20b", Provider: "openai", ContextWindow: 131072, Tokenizer: "estimate", Source: "https://huggingface.co/openai/gpt-oss-20b", AsOf: "2025-08-05"},
}
