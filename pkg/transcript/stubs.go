package transcript

import (
	"encoding/json"
	"errors"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

var errTODO = errors.New("not implemented yet")

func readClaudeCode(r *jsonl.Reader, name string) (*Transcript, error) { return nil, errTODO }
func readCodex(r *jsonl.Reader, name string) (*Transcript, error)      { return nil, errTODO }
func readMessageLines(r *jsonl.Reader, name, format string) (*Transcript, error) {
	return nil, errTODO
}
func readMessagesDoc(v json.RawMessage, name, format string) (*Transcript, error) {
	return nil, errTODO
}
func readGemini(v json.RawMessage, name string) (*Transcript, error)     { return nil, errTODO }
func readGeminiCLI(v json.RawMessage, name string) (*Transcript, error)  { return nil, errTODO }
func readShareGPT(v json.RawMessage, name string) ([]*Transcript, error) { return nil, errTODO }
