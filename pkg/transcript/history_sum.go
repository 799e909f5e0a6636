package transcript

import "github.com/harpe-dev/harpe/internal/checked"

// Add adds c, the count of one more input of the same history, to h: the
// billed tokens and the recorded prompts are summed (HasRecorded when
// either records one). A sum that does not fit an int is an error naming
// the figures, and leaves h as it was. Transcripts are not gathered:
// they are each input's own.
func (h *HistoryCount) Add(c HistoryCount) error {
	tokens, err := checked.AddTokens(h.Tokens, c.Tokens, "the inputs' tokens")
	if err != nil {
		return err
	}
	recorded := h.Recorded
	if c.HasRecorded {
		if recorded, err = checked.AddTokens(recorded, c.Recorded, "the recorded prompts"); err != nil {
			return err
		}
	}
	h.Tokens, h.Recorded, h.HasRecorded = tokens, recorded, h.HasRecorded || c.HasRecorded
	return nil
}
