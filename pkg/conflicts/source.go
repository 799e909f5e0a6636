package conflicts

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// Source gathers the texts of one or more inputs, in order, and, with
// KeepLines, every line they were read from, so that
// [Source.WriteAnnotated] can write the inputs back with notes. Texts
// come one a line ([Source.ReadLines]) or from context items read
// elsewhere ([Source.AddItem], [Source.AddOther]).
type Source struct {
	// Texts are the texts read, to give [Find] (their contents) and
	// [NewReport].
	Texts []Text
	// KeepLines keeps the lines read, for [Source.WriteAnnotated].
	KeepLines bool

	lines []sourceLine
}

// sourceLine is one input line as WriteAnnotated writes it back: the text
// it holds (-1 for none), its bytes, and whether a byte order mark came
// before it.
type sourceLine struct {
	text int
	raw  []byte
	bom  bool
	item bool // raw is a JSON object whose "content" is the text
}

// utf8BOM is the byte order mark an input may begin with.
const utf8BOM = "\xef\xbb\xbf"

// AddItem adds t, the text of an items JSONL line raw ("content" holds
// it; bom: a byte order mark came before the line). raw is kept as it
// is.
func (s *Source) AddItem(t Text, raw []byte, bom bool) {
	s.keep(sourceLine{text: len(s.Texts), raw: raw, bom: bom, item: true})
	s.Texts = append(s.Texts, t)
}

// AddOther keeps raw, a line that holds no text (a blank line), to be
// written back as it is. raw is kept as it is.
func (s *Source) AddOther(raw []byte, bom bool) {
	s.keep(sourceLine{text: -1, raw: raw, bom: bom})
}

func (s *Source) keep(l sourceLine) {
	if s.KeepLines {
		s.lines = append(s.lines, l)
	}
}

// ReadLines reads r, named name in errors, as one text a line, blank
// lines too: the line is the text, without a "\r" before its newline and
// a byte order mark before the first line; its id is prefix followed by
// "L" and the line's number ("L3", "notes.txt:L3"). A line that is not
// UTF-8 is an error naming name and the line.
func (s *Source) ReadLines(ctx context.Context, r io.Reader, name, prefix string) error {
	rd := jsonl.NewReader(r)
	rd.Name = name
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, n, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if jsonl.TooLong(err) != nil {
			return err // names the input and the line
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		l := sourceLine{text: len(s.Texts)}
		if n == 1 && bytes.HasPrefix(line, []byte(utf8BOM)) {
			line, l.bom = line[len(utf8BOM):], true
		}
		if off := jsonl.InvalidUTF8(line); off >= 0 {
			return fmt.Errorf("%s:%d: %s", name, n, jsonl.UTF8Message(line, off))
		}
		if s.KeepLines {
			l.raw = bytes.Clone(line)
		}
		s.keep(l)
		s.Texts = append(s.Texts, Text{ID: prefix + "L" + strconv.Itoa(n), Content: strings.TrimSuffix(string(line), "\r")})
	}
}

// WriteAnnotated writes every line kept back as it was read, but for the
// texts that contradict another (pairs, of [Find] on s.Texts): those get
// the notes of [Notes] after them ([Annotate]), in the line itself or in
// its item's "content". A line ends with "\n", and a byte order mark read
// is written back.
func (s *Source) WriteAnnotated(w io.Writer, pairs []Pair) error {
	notes := Notes(s.Texts, pairs)
	var out bytes.Buffer
	for _, l := range s.lines {
		if l.bom {
			out.WriteString(utf8BOM)
		}
		if l.text < 0 || notes[l.text] == nil {
			out.Write(l.raw)
			out.WriteByte('\n')
			continue
		}
		t := s.Texts[l.text]
		content := Annotate(t.Content, notes[l.text])
		if !l.item {
			out.WriteString(content)
		} else {
			updated, err := jsonl.SetField(l.raw, "content", jsonl.String(content))
			if err != nil {
				return fmt.Errorf("%s: %w", t.ID, err)
			}
			out.Write(updated)
		}
		out.WriteByte('\n')
	}
	_, err := w.Write(out.Bytes())
	return err
}
