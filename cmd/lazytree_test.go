package cmd

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The table of subcommands names the commands their constructors build
// (cobra lists them sorted), so that looking a name up in it finds the
// command cobra would run.
func TestSubcommandsTable(t *testing.T) {
	var got, want []string
	for _, c := range Command().Commands() {
		got = append(got, c.Name())
	}
	for _, sc := range subcommands {
		want = append(want, sc.name)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("tree %v, table %v", got, want)
	}
}

// onlyCommand builds one subcommand alone only when nothing needs the
// others: help, completion, suggestions and the configuration file's key
// check do.
func TestOnlyCommand(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no user harpe.yaml
	t.Setenv("HOME", t.TempDir())
	noEnv := func(string) (string, bool) { return "", false }
	tests := []struct {
		name string
		args []string
		env  func(string) (string, bool)
		want string
	}{
		{"a subcommand", []string{"count", "-t", "o200k_base"}, noEnv, "count"},
		{"the last one", []string{"replay", "x.jsonl"}, noEnv, "replay"},
		{"no arguments", nil, noEnv, ""},
		{"a root flag first", []string{"--version"}, noEnv, ""},
		{"help", []string{"help", "count"}, noEnv, ""},
		{"a misspelt command", []string{"cuont"}, noEnv, ""},
		{"completion", []string{"__complete", "count", ""}, noEnv, ""},
		{"--config", []string{"count", "--config", "x.yaml"}, noEnv, ""},
		{"--config=", []string{"count", "--config=x.yaml"}, noEnv, ""},
		{"a file called --config", []string{"count", "--", "--config"}, noEnv, "count"},
		{"HARPE_CONFIG", []string{"count"}, func(k string) (string, bool) { return "x.yaml", k == "HARPE_CONFIG" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(context.Background(), IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, tt.env)
			if got := a.onlyCommand(tt.args); got != tt.want {
				t.Errorf("onlyCommand(%q) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
	if err := os.WriteFile(filepath.Join(".", "harpe.yaml"), []byte("budget: 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := newApp(context.Background(), IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, noEnv)
	if got := a.onlyCommand([]string{"count"}); got != "" {
		t.Errorf("with a harpe.yaml here: onlyCommand = %q, want the whole tree", got)
	}
}

// A tree built for one subcommand holds that one only.
func TestTreeForOneCommand(t *testing.T) {
	a := newApp(context.Background(), IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard},
		func(string) (string, bool) { return "", false })
	var names []string
	for _, c := range newTree(a, "count").Commands() {
		names = append(names, c.Name())
	}
	if !slices.Equal(names, []string{"count"}) {
		t.Errorf("commands %v, want [count]", names)
	}
}
