package transcript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// HistoryCount is what a transcript input adds to a history whose size is
// judged (harpe fit): the tokens a chat API bills for it, and the prompt
// the provider recorded for each conversation's last call.
type HistoryCount struct {
	// Tokens is the billed count, as [CountBilled] gives it.
	Tokens int
	// Recorded sums, over the conversations that record usage, the input
	// tokens of each one's last recorded call; HasRecorded says whether
	// any records one.
	Recorded    int
	HasRecorded bool
	// Transcripts are the transcripts read that have warnings, as
	// [Scan] hands them on (without messages); the others are not kept,
	// so that an input of many conversations costs one at a time.
	Transcripts []*Transcript
	// Conversations counts the transcripts read.
	Conversations int
}

// CountHistory reads one transcript input (format "" detects it) and
// counts it as a chat API bills it, with each conversation's last
// recorded prompt size. Sums that do not fit an int are an overflow error
// naming name.
func CountHistory(ctx context.Context, r io.Reader, name string, format Format, c tokenize.Counter) (HistoryCount, error) {
	const what = "the billed tokens"
	var h HistoryCount
	var cur *Transcript
	last := map[*Transcript]int{}
	// A tool definitions' overflow is told once the input is read: its
	// place names the conversation when there are several.
	var toolErr error
	toolAt, n := 0, 0
	err := Scan(ctx, r, name, format, func(t *Transcript, m *Message) error {
		if m.InputTokens != nil {
			last[t] = *m.InputTokens
		}
		if m.Aborted {
			return nil
		}
		var err error
		if t != cur { // the first kept message of a conversation
			cur = t
			sumInto(&h.Tokens, ReplyPriming, what, &err)
		}
		sumInto(&h.Tokens, MessageTokens(m, c), what, &err)
		return err
	}, func(t *Transcript) error {
		if n++; toolErr == nil {
			sumInto(&h.Tokens, ToolDefTokens(t.Tools, c), what, &toolErr)
			toolAt = n
		}
		if len(t.Warnings) > 0 {
			h.Transcripts = append(h.Transcripts, t)
		}
		v, ok := last[t]
		if !ok {
			return nil
		}
		delete(last, t)
		h.HasRecorded = true
		var err error
		if h.Recorded, err = addTokens(h.Recorded, v, "the recorded prompts"); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	})
	if err != nil {
		return HistoryCount{}, err
	}
	if toolErr != nil {
		where := ""
		if n > 1 {
			where = fmt.Sprintf("conversation %d", toolAt)
		}
		return HistoryCount{}, &Error{Name: name, Path: where, Err: fmt.Errorf("tool definitions: %w", toolErr)}
	}
	h.Conversations = n
	return h, nil
}

// ReadHead reads br up to and including its first line that is not blank,
// returning everything it read (all of br when every line is blank).
func ReadHead(br *bufio.Reader) ([]byte, error) {
	var read []byte
	for {
		line, err := br.ReadBytes('\n')
		read = append(read, line...)
		if len(bytes.TrimSpace(line)) > 0 || err == io.EOF {
			return read, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// LooksLikeItems reports whether the last line of head (see [ReadHead])
// is a context-items JSONL line rather than a transcript's: a JSON object
// with a string "content" and no "type" (every JSONL transcript format
// that has "content" at the top level also has "type"). A leading byte
// order mark is skipped, as the item reader skips it.
func LooksLikeItems(head []byte) bool {
	line := bytes.TrimSpace(head[bytes.LastIndexByte(bytes.TrimRight(head, "\r\n"), '\n')+1:])
	line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var probe struct {
		Content json.RawMessage `json:"content"`
		Type    json.RawMessage `json:"type"`
	}
	if json.Unmarshal(line, &probe) != nil {
		return false
	}
	return len(probe.Content) > 0 && probe.Content[0] == '"' && probe.Type == nil
}

// CountBilledEach is [CountBilledTranscripts] with several counters: the
// billed count of one transcript input under each, and the bytes read.
// With one counter it streams (a JSONL transcript of any size counts in
// about one turn's memory); with several, the input is read once into
// memory and billed with each.
func CountBilledEach(ctx context.Context, r io.Reader, name string, format Format, counters []tokenize.Counter) (read int64, counts []int, ts []*Transcript, err error) {
	cr := &readCounter{r: r}
	counts = make([]int, len(counters))
	if len(counters) == 1 {
		if counts[0], ts, err = CountBilledTranscripts(ctx, cr, name, format, counters[0]); err != nil {
			return 0, nil, nil, err
		}
		return cr.n, counts, ts, nil
	}
	data, err := io.ReadAll(cr)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return 0, nil, nil, fmt.Errorf("%s: %v", name, err)
	}
	for k, c := range counters {
		if counts[k], ts, err = CountBilledTranscripts(ctx, bytes.NewReader(data), name, format, c); err != nil {
			return 0, nil, nil, err
		}
	}
	return cr.n, counts, ts, nil
}

// readCounter counts the bytes read through it: n is the furthest offset
// read to, from where r was at first, so a file that the reader reads
// twice (it can seek when r can, see Seek) counts once.
type readCounter struct {
	r         io.Reader
	n         int64
	pos, base int64 // the offset read from next; r's offset at pos 0, once based
	based     bool
}

func (c *readCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.pos += int64(n)
	c.n = max(c.n, c.pos)
	return n, err
}

// Seek passes on to r when it is an io.Seeker (a file, which the
// transcript reader then streams rather than holds); else it fails with
// errors.ErrUnsupported.
func (c *readCounter) Seek(off int64, whence int) (int64, error) {
	s, ok := c.r.(io.Seeker)
	if !ok {
		return 0, errors.ErrUnsupported
	}
	if !c.based {
		cur, err := s.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, err
		}
		c.base, c.based = cur-c.pos, true
	}
	abs, err := s.Seek(off, whence)
	if err != nil {
		return abs, err
	}
	c.pos = abs - c.base
	return abs, nil
}
