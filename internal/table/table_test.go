package table

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// The layouts below are worked out by hand from the rules in Render's
// doc: each column as wide as its widest (trimmed) line, "| " before each
// cell, " |" after, borders of '-' two wider than the column.
func TestRender(t *testing.T) {
	tests := []struct {
		name      string
		header    []string
		rows      [][]string
		footer    []string
		width     int
		eastAsian bool
		want      string
	}{
		{"header only: no separator", []string{"ID"}, nil, nil, 80, false,
			"+----+\n| ID |\n+----+\n"},
		{"rows and footer", []string{"ID", "N"}, [][]string{{"a", "12"}}, []string{"total", "12"}, 80, false,
			"+-------+----+\n| ID    | N  |\n+-------+----+\n| a     | 12 |\n+-------+----+\n| total | 12 |\n+-------+----+\n"},
		{"footer without rows", []string{"A"}, nil, []string{"t"}, 80, false,
			"+---+\n| A |\n+---+\n+---+\n| t |\n+---+\n"},
		{"short row padded, spaces trimmed", []string{"A", "B"}, [][]string{{"  x  "}}, nil, 80, false,
			"+---+---+\n| A | B |\n+---+---+\n| x |   |\n+---+---+\n"},
		// 日本 is two wide characters: 4 columns.
		{"wide characters", []string{"日本"}, [][]string{{"ab"}}, nil, 80, false,
			"+------+\n| 日本 |\n+------+\n| ab   |\n+------+\n"},
		// ± is East Asian ambiguous: 1 column, or 2 in a CJK terminal.
		{"ambiguous narrow", []string{"±"}, nil, nil, 80, false, "+---+\n| ± |\n+---+\n"},
		{"ambiguous wide", []string{"±"}, nil, nil, 80, true, "+----+\n| ± |\n+----+\n"},
		{"control escaped", []string{"a\x1bb"}, nil, nil, 80, false, "+--------+\n| a\\x1bb |\n+--------+\n"},
		// Width 13: room 13-(3*2+1) = 6; natural widths 1+11 = 12 do not
		// fit. Words "aaaa" "bbbb" "cc" keep whole (floors 1 and 4), and the
		// cap is the largest c with min(1,c)+min(11,max(c,4)) <= 6: c = 5.
		// "aaaa bbbb cc" wraps at 5: "aaaa", "bbbb", "cc"; the column is then
		// as wide as its widest line, 4.
		{"wrapped to fit", []string{"#", "text"}, [][]string{{"1", "aaaa bbbb cc"}}, nil, 13, false,
			"+---+------+\n| # | text |\n+---+------+\n| 1 | aaaa |\n|   | bbbb |\n|   | cc   |\n+---+------+\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, Options{Width: tt.width, EastAsian: tt.eastAsian}, tt.header, tt.rows, tt.footer); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

func TestEastAsianFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"nothing set", nil, false},
		{"C locale", map[string]string{"LANG": "C.UTF-8"}, false},
		{"Japanese locale", map[string]string{"LANG": "ja_JP.UTF-8"}, true},
		{"English in Hong Kong", map[string]string{"LC_ALL": "en_HK.UTF-8"}, true},
		{"LC_ALL beats LANG", map[string]string{"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, false},
		{"modern terminal stays narrow", map[string]string{"LANG": "zh_CN.UTF-8", "TERM": "xterm-256color"}, false},
		{"override on", map[string]string{"RUNEWIDTH_EASTASIAN": "1", "TERM": "xterm"}, true},
		{"override off", map[string]string{"RUNEWIDTH_EASTASIAN": "off", "LANG": "ko_KR"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			if got := EastAsianFromEnv(lookup); got != tt.want {
				t.Errorf("EastAsianFromEnv = %v, want %v", got, tt.want)
			}
		})
	}
}

func ExampleRender() {
	Render(os.Stdout, Options{Width: 80}, []string{"ID", "TOKENS"}, [][]string{{"a", "12"}, {"b", "3"}}, []string{"total", "15"})
	// Output:
	// +-------+--------+
	// | ID    | TOKENS |
	// +-------+--------+
	// | a     | 12     |
	// | b     | 3      |
	// +-------+--------+
	// | total | 15     |
	// +-------+--------+
}

func BenchmarkRender(b *testing.B) {
	rows := make([][]string, 200)
	for i := range rows {
		rows[i] = []string{fmt.Sprint("item-", i), fmt.Sprint(i * 7), strings.Repeat("word ", i%30)}
	}
	for b.Loop() {
		if err := Render(&bytes.Buffer{}, Options{Width: 80}, []string{"ID", "TOKENS", "NOTE"}, rows, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAtLeastMin: a report's tables fit 80 columns below 80 (0, unknown,
// included) and the width given above it; EastAsian is kept.
func TestAtLeastMin(t *testing.T) {
	for _, tt := range []struct{ in, want int }{{0, 80}, {-3, 80}, {79, 80}, {80, 80}, {120, 120}} {
		got := Options{Width: tt.in, EastAsian: true}.AtLeastMin()
		if got != (Options{Width: tt.want, EastAsian: true}) {
			t.Errorf("Options{Width: %d}.AtLeastMin() = %+v, want width %d", tt.in, got, tt.want)
		}
	}
}
