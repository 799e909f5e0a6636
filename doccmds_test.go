package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/cmd"
)

// TestDocCommandLines parses every harpe command line that README.md and
// docs/*.md quote without running it (a block with no "$ " prompt, a
// skipped block, a pipeline's later harpe): its subcommand must exist and
// its flags must be the command's, with values of their type, so a
// renamed or removed flag cannot live on in a page. Arguments in capitals
// (FILE, N) and bracketed synopses ([--format json|table]) are the page's
// placeholders and are not parsed as flags' values of a type.
func TestDocCommandLines(t *testing.T) {
	checked := 0
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range quotedCommands(string(data)) {
			checked++
			if err := parseDocCommand(q.args); err != nil {
				t.Errorf("%s:%d: %s: %v", page, q.line, strings.Join(q.args, " "), err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no harpe command line found in the pages")
	}
	t.Logf("%d quoted harpe command lines parsed", checked)
}

type quotedCommand struct {
	line int
	args []string // after "harpe"
}

// quotedCommands returns the harpe command lines in the fenced blocks of
// text that are not run (not marked, or the "$ " lines of one marked
// skip): each segment of a line, split at |, && and ;, that starts with
// "harpe " or "./harpe ".
func quotedCommands(text string) []quotedCommand {
	var out []quotedCommand
	lines := strings.Split(text, "\n")
	run := false     // the open block is a marked one, run by TestReadme
	skipped := false // it is marked skip: its "$ " lines are commands, the rest output
	fenced := false
	var indent string
	for i, l := range lines {
		if ind, ok := isFence(l); ok {
			if !fenced {
				indent = ind
				prev := ""
				if i > 0 {
					prev = strings.TrimSpace(lines[i-1])
				}
				skipped = strings.HasPrefix(prev, readmeMarker+" skip:")
				run = strings.HasPrefix(prev, readmeMarker) && !skipped
			}
			fenced = !fenced
			continue
		}
		if !fenced || run {
			continue
		}
		l = strings.TrimPrefix(l, indent)
		if skipped && !strings.HasPrefix(l, "$ ") {
			continue
		}
		l = strings.TrimPrefix(l, "$ ")
		for k := i + 1; strings.HasSuffix(l, `\`) && k < len(lines); k++ {
			l = strings.TrimSuffix(l, `\`) + " " + strings.TrimSpace(lines[k])
		}
		for _, seg := range splitShell(l) {
			if len(seg) > 0 && (seg[0] == "harpe" || seg[0] == "./harpe") {
				out = append(out, quotedCommand{line: i + 1, args: seg[1:]})
			}
		}
	}
	return out
}

// splitShell splits a shell line into words, honouring quotes, and into
// commands at |, &&, ; and # (the rest is a comment).
func splitShell(l string) [][]string {
	var cmds [][]string
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	flushWord := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	flushCmd := func() {
		flushWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words = nil
	}
	rs := []rune(l)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			flushWord()
		case r == '|' || r == ';' || r == '&':
			flushCmd()
			if i+1 < len(rs) && rs[i+1] == r {
				i++
			}
		case r == '#' && !inWord:
			flushCmd()
			return cmds
		case r == '<' || r == '>':
			// A redirection: its target is not an argument.
			flushWord()
			for i+1 < len(rs) && (rs[i+1] == ' ' || rs[i+1] == '>') {
				i++
			}
			for i+1 < len(rs) && rs[i+1] != ' ' {
				i++
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	flushCmd()
	return cmds
}

// parseDocCommand finds args' subcommand in harpe's command tree and
// parses its flags.
func parseDocCommand(args []string) error {
	root := cmd.Command()
	var kept []string
	for _, a := range args {
		if strings.HasPrefix(a, "[") || strings.HasSuffix(a, "]") || a == "…" || a == "..." {
			continue // a synopsis' optional part
		}
		kept = append(kept, a)
	}
	c, rest, err := root.Find(kept)
	if err != nil {
		return err
	}
	if c == root && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		return fmt.Errorf("no subcommand %q", rest[0])
	}
	// A placeholder value (N, FILE, SPECS) given to a typed flag stands
	// for a value of that type.
	for k := 1; k < len(rest); k++ {
		if isPlaceholder(rest[k]) && strings.HasPrefix(rest[k-1], "-") {
			name := strings.TrimLeft(rest[k-1], "-")
			f := c.Flags().Lookup(name)
			if f == nil && len(name) == 1 {
				f = c.Flags().ShorthandLookup(name)
			}
			if f != nil && f.Value.Type() != "string" && f.Value.Type() != "stringSlice" {
				rest[k] = f.DefValue
				if f.Value.Type() == "bool" {
					rest[k] = "x" // an argument
				}
			}
		}
	}
	return c.ParseFlags(rest)
}

// isPlaceholder reports whether a word is a page's placeholder: capitals,
// digits and _-.|…
func isPlaceholder(w string) bool {
	return w != "" && strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.|…") == "" && strings.ContainsAny(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}
