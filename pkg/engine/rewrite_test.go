package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// An error from the edit stops the read at that item and comes back as
// it is; the lines before it are written.
func TestRewriteStopsOnEditError(t *testing.T) {
	stop := errors.New("stop")
	in := `{"id":"a","content":"x"}` + "\n" + `{"id":"b","content":"y"}` + "\n" + `{"id":"c","content":"z"}` + "\n"
	var out bytes.Buffer
	calls := 0
	err := NewItemReader(ReadOptions{}).Rewrite(context.Background(), strings.NewReader(in), "in", &out, func(l Line) ([]byte, error) {
		if calls++; l.Item.ID == "b" {
			return nil, stop
		}
		return l.Raw, nil
	})
	if err != stop || calls != 2 || out.String() != `{"id":"a","content":"x"}`+"\n" {
		t.Errorf("err %v, %d calls, out %q", err, calls, out.String())
	}
}
