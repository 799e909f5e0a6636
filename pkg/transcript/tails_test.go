package transcript

import (
	"fmt"
	"strings"
	"testing"
)

// TestJoinedAndPaddedFiles: a byte order mark at the start of a later line
// (two files joined with cat) is read past, and lines of NUL bytes (the
// tail a crash leaves in a preallocated file) are skipped; each kind gets
// one warning naming its first line and counting its lines, and the
// messages around them read as usual.
func TestJoinedAndPaddedFiles(t *testing.T) {
	bom := "\xef\xbb\xbf"
	in := bom + `{"type":"user","content":"one"}` + "\n" +
		bom + `{"type":"assistant","content":"two"}` + "\n" +
		bom + `{"type":"user","content":"three"}` + "\n" +
		strings.Repeat("\x00", 4096) + "\n" + strings.Repeat("\x00", 100)
	ts, err := Read(strings.NewReader(in), "in", "")
	if err != nil {
		t.Fatal(err)
	}
	tr := ts[0]
	if len(tr.Messages) != 3 || tr.Messages[2].Text != "three" {
		t.Fatalf("messages %+v", tr.Messages)
	}
	var got []string
	for _, w := range tr.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		"in:2: 2 line(s) began with a byte order mark (files joined?), read without it",
		"in:4: 2 line(s) of NUL bytes skipped (a file padded by a crash?)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestShareGPTIDs: a conversation without an id is named by its position
// from 0, unless another conversation has that id: here the 2nd (position
// 1) has none and the 1st is "1", so the 2nd is "#1". Two conversations
// with one id make Select an error naming their positions.
func TestShareGPTIDs(t *testing.T) {
	in := `[{"id":"1","conversations":[{"from":"human","value":"a"}]},{"conversations":[{"from":"human","value":"b"}]},` +
		`{"id":"x","conversations":[{"from":"human","value":"c"}]},{"id":"x","conversations":[{"from":"human","value":"d"}]}]`
	ts, err := Read(strings.NewReader(in), "s.json", "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tr := range ts {
		ids = append(ids, tr.ID)
	}
	if strings.Join(ids, " ") != "1 #1 x x" {
		t.Errorf("ids %q, want 1 #1 x x", ids)
	}
	if tr, err := Select(ts, "1"); err != nil || tr.Messages[0].Text != "a" {
		t.Errorf("select 1: %v", err)
	}
	if tr, err := Select(ts, "#1"); err != nil || tr.Messages[0].Text != "b" {
		t.Errorf("select #1: %v", err)
	}
	_, err = Select(ts, "x")
	if want := `2 conversations are named "x" (the 3rd and 4th in the input); give each its own id`; err == nil || err.Error() != want {
		t.Errorf("select x: %v\nwant %s", err, want)
	}
}

// TestShareGPTAutomaticNames: the names given to conversations without
// an id, worked out by hand from the rule (the position from 0, with "#"
// before it while another conversation has that name). Only ids that
// such a name could equal are remembered ([couldBeAutomatic]), so "01"
// does not push the 2nd conversation's "1" aside.
func TestShareGPTAutomaticNames(t *testing.T) {
	for _, tt := range []struct {
		name string
		ids  []string // "" for none
		want string
	}{
		{"taken twice", []string{"1", "", "#1", ""}, "1 ##1 #1 3"},
		{"taken later", []string{"3", "", "", ""}, "3 1 2 #3"},
		{"leading zero is no position", []string{"01", ""}, "01 1"},
		{"other ids", []string{"c1", "", "x"}, "c1 1 x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var convs []string
			for i, id := range tt.ids {
				c := fmt.Sprintf(`{"conversations":[{"from":"human","value":"m%d"}]}`, i)
				if id != "" {
					c = fmt.Sprintf(`{"id":%q,"conversations":[{"from":"human","value":"m%d"}]}`, id, i)
				}
				convs = append(convs, c)
			}
			ts, err := Read(strings.NewReader("["+strings.Join(convs, ",")+"]"), "s.json", "")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tr := range ts {
				got = append(got, tr.ID)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("ids %q, want %s", got, tt.want)
			}
		})
	}
}

func TestCouldBeAutomatic(t *testing.T) {
	for id, want := range map[string]bool{
		"0": true, "17": true, "#17": true, "##0": true,
		"": false, "#": false, "01": false, "#01": false, "c1": false, "1a": false,
		"-1": false, "+1": false, "1.0": false, " 1": false, "1#": false,
	} {
		if got := couldBeAutomatic(id); got != want {
			t.Errorf("couldBeAutomatic(%q) = %v, want %v", id, got, want)
		}
	}
}
