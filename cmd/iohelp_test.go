package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/table"
	"github.com/spf13/cobra"
)

func TestRenderTableFits80Columns(t *testing.T) {
	long := strings.Repeat("word ", 40)
	var buf bytes.Buffer
	err := renderTable(&buf, []string{"id", "tokens", "note"},
		[][]string{{"a", "1", "short"}, {"b", "22", long}}, []string{"total", "23", ""})
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
	if !strings.Contains(buf.String(), "total") {
		t.Errorf("footer missing:\n%s", buf.String())
	}
}

// TestConfigLayers checks flags > HARPE_<CMD>_<FLAG> > HARPE_<FLAG> >
// harpe.yaml (<cmd>.<flag>, then <flag>) > defaults on a probe command.
func TestConfigLayers(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "harpe.yaml")
	if err := os.WriteFile(cfg, []byte("budget: 100\nprobe:\n  reserve: 7\ncap:\n  tool: 10%\n  history: 50\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"defaults and file", nil, nil, "budget=100 reserve=7 cap=history=50,tool=10%"},
		{"generic env beats file", nil, map[string]string{"HARPE_BUDGET": "200"}, "budget=200 reserve=7 cap=history=50,tool=10%"},
		{"command env beats generic env", nil, map[string]string{"HARPE_BUDGET": "200", "HARPE_PROBE_BUDGET": "300", "HARPE_RESERVE": "1"}, "budget=300 reserve=1 cap=history=50,tool=10%"},
		{"empty env is unset", nil, map[string]string{"HARPE_BUDGET": "", "HARPE_PROBE_BUDGET": ""}, "budget=100 reserve=7 cap=history=50,tool=10%"},
		{"flag beats all", []string{"--budget", "5", "--cap", "x=1"}, map[string]string{"HARPE_BUDGET": "200"}, "budget=5 reserve=7 cap=x=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			a := &app{io: IO{Out: &out, Err: &errb}, ctx: context.Background(),
				lookupEnv: func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }}
			root := newRootCmd(a)
			var budget, reserve int
			var caps []string
			probe := &cobra.Command{Use: "probe", RunE: func(c *cobra.Command, _ []string) error {
				_, err := c.OutOrStdout().Write([]byte(""))
				return err
			}}
			probe.Flags().IntVar(&budget, "budget", 0, "")
			probe.Flags().IntVar(&reserve, "reserve", 0, "")
			probe.Flags().StringSliceVar(&caps, "cap", nil, "")
			root.AddCommand(probe)
			root.SetArgs(append([]string{"--config", cfg, "probe"}, tt.args...))
			if err := root.Execute(); err != nil {
				t.Fatal(err)
			}
			got := "budget=" + itoa(budget) + " reserve=" + itoa(reserve) + " cap=" + strings.Join(caps, ",")
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConfigBadValueNamesSource(t *testing.T) {
	a := &app{io: IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}, ctx: context.Background(),
		lookupEnv: func(string) (string, bool) { return "", false }}
	root := newRootCmd(a)
	root.AddCommand(&cobra.Command{Use: "probe", RunE: func(*cobra.Command, []string) error { return nil }})
	root.SetArgs([]string{"--config", filepath.Join(t.TempDir(), "none.yaml"), "probe"})
	err := root.Execute()
	if err == nil || !strings.Contains(err.Error(), "none.yaml") {
		t.Fatalf("want an error naming the missing config file, got %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestRenderTableKeepsNaturalWidthWhenItFits(t *testing.T) {
	var buf bytes.Buffer
	if err := renderTable(&buf, []string{"statement", "denial"}, [][]string{{"I live in Boston with my sister", "I no longer live in Boston"}}, nil); err != nil {
		t.Fatal(err)
	}
	// Worked by hand: 2 + 31 + 3 + 26 + 2 = 64 columns, no wrapping.
	want := `+---------------------------------+----------------------------+
| statement                       | denial                     |
+---------------------------------+----------------------------+
| I live in Boston with my sister | I no longer live in Boston |
+---------------------------------+----------------------------+
`
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestWrapCell(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"one two three", 7, "one two\nthree"},
		{"abcdefghij", 4, "abcd\nefgh\nij"},
		{"a\nbb cc", 2, "a\nbb\ncc"},
		{"testdata/tokens/chat_emoji.txt", 20, "testdata/tokens/\nchat_emoji.txt"},
		{"家族の写真", 4, "家族\nの写\n真"},
	}
	for _, tt := range tests {
		if got := (table.Options{}).Wrap(tt.in, tt.width); got != tt.want {
			t.Errorf("wrapCell(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}
