package cmd

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// completions runs cobra's hidden __complete command and returns the
// offered values (descriptions dropped) and the directive line.
func completions(t *testing.T, args ...string) (values []string, directive string) {
	t.Helper()
	code, out, errOut := runHarpe(t, "", append([]string{"__complete"}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %v: exit %d, stderr %q", args, code, errOut)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(line, ":") {
			directive = line
			continue
		}
		name, _, _ := strings.Cut(line, "\t")
		values = append(values, name)
	}
	return values, directive
}

// The expected lists are written from SPEC §4, §5, §9 and each command's
// help text, not read from the code.
func TestCompleteFlagValues(t *testing.T) {
	transcripts := []string{"harpe", "claude-code", "codex", "openai", "anthropic", "gemini", "gemini-cli", "copilot-cli", "opencode",
		"sharegpt", "swe-agent", "openhands", "long-memory", "vcr", "har"}
	tests := []struct {
		name string
		args []string
		want []string
		// directive is cobra's bit set: 4 no file names, 2 no space after.
		directive string
	}{
		{"strategy", []string{"replay", "--strategy", ""}, []string{"full", "windowed", "summarizing", "turn", "sliding", "budget", "cheapest", "claude-code", "codex", "clear", "mask", "limit", "micro"}, ":6"},
		{"strategy after a comma", []string{"replay", "--strategy", "full,s"}, []string{"full,summarizing", "full,sliding"}, ":6"},
		{"strategy not offered twice", []string{"replay", "--strategy", "turn,full,"},
			[]string{"turn,full,windowed", "turn,full,summarizing", "turn,full,sliding", "turn,full,budget", "turn,full,cheapest", "turn,full,claude-code", "turn,full,codex", "turn,full,clear", "turn,full,mask", "turn,full,limit", "turn,full,micro"}, ":6"},
		{"policy on synthesize", []string{"synthesize", "--policy", ""},
			[]string{"lowest_priority", "recency", "input_order", "relevance", "knapsack", "duo_attention"}, ":4"},
		{"policy prefix", []string{"replay", "--policy", "re"}, []string{"recency", "relevance"}, ":4"},
		{"tokenizer", []string{"fit", "--tokenizer", ""}, []string{"estimate", "o200k_base", "cl100k_base"}, ":4"},
		{"tokenizer list on count", []string{"count", "-t", "estimate,"}, []string{"estimate,o200k_base", "estimate,cl100k_base"}, ":6"},
		{"model prefix", []string{"synthesize", "--model", "gpt-4o"}, []string{"gpt-4o", "gpt-4o-mini"}, ":4"},
		{"format of synthesize", []string{"synthesize", "--format", ""}, []string{"json", "yaml", "table"}, ":4"},
		{"format of count", []string{"count", "-f", ""}, []string{"text", "json", "table"}, ":4"},
		{"format of replay", []string{"replay", "--format", ""}, []string{"table", "json", "jsonl"}, ":4"},
		{"format of dates anchor", []string{"dates", "anchor", "--format", ""}, []string{"text", "json"}, ":4"},
		{"format of transcript", []string{"transcript", "--format", ""}, []string{"json", "table"}, ":4"},
		{"input-format of replay", []string{"replay", "--input-format", ""}, transcripts, ":4"},
		{"input-format of fit", []string{"fit", "--input-format", ""}, append([]string{"auto", "items"}, transcripts...), ":4"},
		{"emit", []string{"synthesize", "--emit", ""}, []string{"report", "kept", "dropped", "rendered"}, ":4"},
		{"destination", []string{"synthesize", "--destination", ""}, []string{"remote", "local"}, ":4"},
		{"a number offers no files", []string{"synthesize", "--budget", ""}, nil, ":4"},
		{"an output file is a file name", []string{"synthesize", "-o", ""}, nil, ":0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, directive := completions(t, tt.args...)
			if !slices.Equal(got, tt.want) {
				t.Errorf("values: got %q, want %q", got, tt.want)
			}
			if directive != tt.directive {
				t.Errorf("directive: got %s, want %s", directive, tt.directive)
			}
		})
	}
}

// Every value flag of every command has a completion, so none falls back to
// file names.
func TestEveryValueFlagCompletes(t *testing.T) {
	root := Command()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if _, known := valueCompleters[f.Name]; !known {
				return
			}
			if _, ok := c.GetFlagCompletionFunc(f.Name); !ok {
				t.Errorf("%s --%s: no completion registered", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// The lists written in complete.go match what each command's validation
// accepts: the "valid: …" list of its own error message.
func TestCompletionListsMatchValidation(t *testing.T) {
	validList := regexp.MustCompile(`valid: (.*)\n`)
	tests := []struct {
		name string
		args []string
		list []string
	}{
		{"emit", []string{"synthesize", "--budget", "1", "--emit", "bogus"}, emitValues},
		{"destination", []string{"synthesize", "--budget", "1", "--destination", "bogus"}, valueCompleters["destination"](nil, nil)},
		{"fit input-format", []string{"fit", "--threshold", "1", "--input-format", "bogus"}, append([]string{"auto", "items"}, valueCompleters["input-format"](nil, &cobra.Command{})...)},
		{"replay cache", []string{"replay", "--cache", "bogus"}, valueCompleters["cache"](nil, nil)},
		{"replay cache-ttl", []string{"replay", "--cache-ttl", "bogus"}, valueCompleters["cache-ttl"](nil, nil)},
		{"replay plot-metric", []string{"replay", "--plot-metric", "bogus"}, valueCompleters["plot-metric"](nil, nil)},
	}
	for cmdPath, formats := range formatsOf {
		args := append(strings.Fields(cmdPath), "--format", "bogus")
		switch cmdPath {
		case "synthesize":
			args = append(args, "--budget", "1")
		case "fit":
			args = append(args, "--threshold", "1")
		}
		tests = append(tests, struct {
			name string
			args []string
			list []string
		}{cmdPath + " format", args, formats})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runHarpe(t, "", tt.args...)
			m := validList.FindStringSubmatch(stderr)
			if code != ExitUsage || m == nil {
				t.Fatalf("exit %d, stderr %q: want a usage error listing the valid values", code, stderr)
			}
			if got := strings.Split(m[1], ", "); !slices.Equal(got, tt.list) {
				t.Errorf("validation accepts %q, completion offers %q", got, tt.list)
			}
		})
	}
}

func TestCompletionDescriptionsHaveNoBackquotes(t *testing.T) {
	for _, args := range [][]string{{"synthesize", "--"}, {"replay", "--"}, {"count", "-"}, {""}} {
		_, out, _ := runHarpe(t, "", append([]string{"__complete"}, args...)...)
		if strings.Contains(out, "`") {
			t.Errorf("__complete %v shows a backquote:\n%s", args, out)
		}
		if !strings.Contains(out, "\t") {
			t.Errorf("__complete %v: no descriptions:\n%s", args, out)
		}
	}
	// Help keeps its placeholders.
	_, out, _ := runHarpe(t, "", "synthesize", "--help")
	if !strings.Contains(out, "--report FILE") {
		t.Errorf("help lost the FILE placeholder:\n%s", out)
	}
}

func TestCompletionListedInHelp(t *testing.T) {
	_, out, _ := runHarpe(t, "", "--help")
	if !regexp.MustCompile(`(?m)^  completion +\S`).MatchString(out) {
		t.Errorf("harpe --help does not list completion:\n%s", out)
	}
}

// A flag name means the same short flag on every command, and --format,
// --tokenizer and --model have -f, -t and -m wherever they exist.
func TestShortFlagsConsistent(t *testing.T) {
	want := map[string]string{"format": "f", "tokenizer": "t", "model": "m", "output": "o"}
	seen := map[string]string{}
	where := map[string]string{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if w, ok := want[f.Name]; ok && f.Shorthand != w {
				t.Errorf("%s --%s: short flag %q, want %q", c.CommandPath(), f.Name, f.Shorthand, w)
			}
			if prev, ok := seen[f.Name]; ok && prev != f.Shorthand {
				t.Errorf("--%s is -%s on %s but -%s on %s", f.Name, prev, where[f.Name], f.Shorthand, c.CommandPath())
			}
			seen[f.Name], where[f.Name] = f.Shorthand, c.CommandPath()
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(Command())
}

func TestFlagMistakes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"swapped letters", []string{"synthesize", "--budgte", "5"}, "harpe: unknown flag --budgte; did you mean --budget?\n"},
		{"missing letter", []string{"replay", "--stratgy", "full"}, "harpe: unknown flag --stratgy; did you mean --strategy?\n"},
		// totl is totals with two letters left out (distance 2 > the
		// limit of 1 for four letters), in order.
		{"two letters left out", []string{"replay", "--totl", "x"}, "harpe: unknown flag --totl; did you mean --totals?\n"},
		{"prefix", []string{"fit", "--thresh", "5"}, "harpe: unknown flag --thresh; did you mean --threshold?\n"},
		{"inherited flag", []string{"count", "--confg", "x"}, "harpe: unknown flag --confg; did you mean --config?\n"},
		{"nothing close", []string{"count", "--zzzzzz"}, "harpe: unknown flag --zzzzzz\n"},
		{"unknown short flag", []string{"count", "-x"}, "harpe: unknown flag -x\n"},
		{"not a whole number", []string{"synthesize", "--budget", "abc"}, "harpe: --budget: \"abc\" is not a whole number\n"},
		{"too large", []string{"replay", "--head", "99999999999999999999"}, "harpe: --head: \"99999999999999999999\" is too large\n"},
		{"not a number", []string{"synthesize", "--alpha", "half"}, "harpe: --alpha: \"half\" is not a number\n"},
		{"not a boolean", []string{"synthesize", "--strict=maybe"}, "harpe: --strict: \"maybe\" is not true or false\n"},
		{"needs a value", []string{"synthesize", "--budget"}, "harpe: --budget: needs a value\n"},
	}
	commands := []struct {
		name string
		args []string
		want string
	}{
		{"misspelled command", []string{"synhtesize"}, "harpe: unknown command \"synhtesize\" for \"harpe\"; did you mean synthesize?\n"},
		{"nothing close", []string{"zzz"}, "harpe: unknown command \"zzz\" for \"harpe\"\n"},
	}
	for _, tt := range commands {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runHarpe(t, "", tt.args...)
			if code != ExitUsage || stdout != "" || stderr != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, tt.want)
			}
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runHarpe(t, "", tt.args...)
			first, _, _ := strings.Cut(stderr, "\n")
			if code != ExitUsage || stdout != "" || first+"\n" != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, tt.want)
			}
			if !strings.Contains(stderr, "--help' for usage.") {
				t.Errorf("no pointer to --help: %q", stderr)
			}
		})
	}
}
