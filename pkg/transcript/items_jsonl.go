package transcript

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteItems writes the items of each transcript as JSONL, an item a
// line, HTML characters as they are. With several transcripts, ids and
// groups get the transcript's 1-based number as a prefix ("2.m5"), so
// they stay unique in one stream.
func WriteItems(w io.Writer, items [][]Item) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for k, its := range items {
		for _, it := range its {
			if len(items) > 1 {
				it.ID = fmt.Sprintf("%d.%s", k+1, it.ID)
				if it.Group != "" {
					it.Group = fmt.Sprintf("%d.%s", k+1, it.Group)
				}
			}
			if err := enc.Encode(it); err != nil {
				return err
			}
		}
	}
	return nil
}
