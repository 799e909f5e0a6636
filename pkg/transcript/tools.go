package transcript

import (
	"bytes"
	"encoding/json"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// ToolDef is one tool definition a request sent to the model (the request
// body's "tools"), as far as the transcript records it.
type ToolDef struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the arguments as recorded
	// (OpenAI "parameters", Anthropic "input_schema"), compact JSON; for a
	// definition with neither (a provider's built-in tool), the whole
	// definition's JSON.
	Parameters string
}

// TokensPerToolDef frames each tool definition. No provider publishes how
// it renders definitions into the prompt, so harpe fixes one, like
// [TokensPerToolCall].
const TokensPerToolDef = 3

// ToolDefTokens is what the tool definitions cost in a request counted
// with c: for each, [TokensPerToolDef] plus its name, description and
// parameters schema. Provider-side prompts that come with tool use (the
// hidden tool-use system prompt Anthropic adds) are not counted: they
// are part of the unseen overhead.
func ToolDefTokens(defs []ToolDef, c tokenize.Counter) int {
	n := 0
	for _, d := range defs {
		n += TokensPerToolDef + countText(c, d.Name) + countText(c, d.Description) + countText(c, d.Parameters)
	}
	return n
}

// parseTools reads a request's "tools" array in any of the shapes the
// providers use: OpenAI Chat {type:"function", function:{name,
// description, parameters}}, OpenAI Responses {type:"function", name,
// description, parameters}, Anthropic {name, description, input_schema}
// (server tools: {type, name}), Gemini {functionDeclarations:[…]}. Entries
// it cannot read are kept as their JSON, so nothing is lost from the count.
func parseTools(raw json.RawMessage) []ToolDef {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) != nil {
		return nil
	}
	var out []ToolDef
	for _, el := range arr {
		var t struct {
			Type        string          `json:"type"`
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
			InputSchema json.RawMessage `json:"input_schema"`
			Function    *struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
			FunctionDeclarations []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"functionDeclarations"`
		}
		if json.Unmarshal(el, &t) != nil {
			out = append(out, ToolDef{Parameters: compactJSON(el)})
			continue
		}
		switch {
		case t.Function != nil:
			out = append(out, ToolDef{Name: t.Function.Name, Description: t.Function.Description, Parameters: compactJSON(t.Function.Parameters)})
		case t.FunctionDeclarations != nil:
			for _, f := range t.FunctionDeclarations {
				out = append(out, ToolDef{Name: f.Name, Description: f.Description, Parameters: compactJSON(f.Parameters)})
			}
		case t.InputSchema != nil:
			out = append(out, ToolDef{Name: t.Name, Description: t.Description, Parameters: compactJSON(t.InputSchema)})
		case t.Parameters != nil:
			out = append(out, ToolDef{Name: t.Name, Description: t.Description, Parameters: compactJSON(t.Parameters)})
		default:
			out = append(out, ToolDef{Name: t.Name, Parameters: compactJSON(el)})
		}
	}
	return out
}

// compactJSON returns v without insignificant white space, "" for none.
func compactJSON(v json.RawMessage) string {
	if len(bytes.TrimSpace(v)) == 0 || string(bytes.TrimSpace(v)) == "null" {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

// ResultToolName is the name of the tool whose result m is: m.Name when
// the format records it on the result, else the name of the call m
// answers in names (call id → tool name); "" when neither knows.
func ResultToolName(m *Message, names map[string]string) string {
	if m.Role == RoleTool && m.Name != "" {
		return m.Name
	}
	return names[m.ToolCallID]
}
