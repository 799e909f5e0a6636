package main

// TestReadme runs the shell examples of README.md and of every page under
// docs/ and checks that they print what the page shows.
//
// # Marker convention
//
// Only blocks marked for checking are run, so prose examples stay free.
// The marker is an HTML comment (invisible on GitHub) on the line right
// before the opening fence:
//
//	<!-- readme-test -->
//	```
//	$ harpe count -t o200k_base < testdata/tokens/prose_en.txt
//	410
//	```
//
// `<!-- readme-test requires=jq -->` skips the block when a program it
// needs (comma-separated) is not on PATH; `files=testdata/script/x.txtar`
// puts that archive's files in the block's directory first (the pages
// quote inputs that a testscript pins); `home=testdata/agent` gives the
// block a home holding that directory's entries with a dot before their
// names (its claude as ~/.claude, codex as ~/.codex), so an example that
// reads "your own sessions" reads the samples, the home's path shown as
// ~; `repo` runs the commands in the repository's root with the go
// command's caches (offline), for `go run ./examples/…`. `<!-- readme-test go -->` marks
// a whole Go program (package main) instead: it is built inside this
// module and run, and must print what its "// Output:" comment says, as
// in a Go example.
//
// Inside a marked block, a line starting with "$ " is a command; a command
// line ending in a backslash continues on the next line. The lines after
// a command, up to the next command or the closing fence, are what it
// prints: standard output and standard error together, as a terminal
// shows them. A last line of "…" alone means the output goes on and only
// the lines shown are compared. Each command runs with `sh -c` in a fresh
// directory holding `testdata` (a link to the repository's) and an empty
// `docs/`, with harpe on PATH, no HARPE_* variables and an empty home, so
// no configuration file applies. Commands of a block share the directory,
// in order, and $? in a command is the status of the one before; a
// command that is only `cd DIR` moves the ones after it. A file
// a command writes under docs/ must equal the repository's file of that
// name (so `--plot docs/replay.svg` checks the committed picture).
//
// A block whose output cannot be reproduced here (it times things, needs
// a peer program or a file a user downloads) is marked
// `<!-- readme-test skip: why -->` instead; the test counts these and
// fails when their number is not readmeSkipped. Any other fenced block
// with a "$ " command on one of its lines, indented in a list item or
// not, is an error: every example is either run or says why not.
// The harpe command lines of blocks that are not run are parsed instead
// (TestDocCommandLines, doccmds_test.go): subcommand and flags.
//
// `go test -run TestReadme -update` writes what each command printed into
// the page in place of what it showed (the lines a "…" block shows, no
// more): read the diff before committing it, it is the change in what
// users see.

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

const readmeMarker = "<!-- readme-test"

// docPages are the pages whose examples TestReadme runs.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(pages)
	return append([]string{"README.md"}, pages...)
}

// readmeCommand is one "$ " command of a marked block and the output the
// README shows for it.
type readmeCommand struct {
	line    int // of the "$ " line in the page
	command string
	want    []string
	prefix  bool // the output shown ends in "…": compare only its lines
	// last is the index (0-based) of the page's last line of the command
	// (its last continuation line), so want starts at last+1.
	last int
}

type readmeBlock struct {
	line int // of the marker
	// indent is the blank space before the block's fence (a block in a
	// list item): its lines are read, and written by -update, without it.
	indent   string
	requires []string
	// files is a txtar archive (testdata/script/….txtar) whose files the
	// block's commands find in their directory.
	files string
	// home is a directory of the repository (testdata/agent) whose
	// entries the block's home holds with a dot before their names
	// (claude as ~/.claude), so "~/.claude/projects" reads its samples.
	home string
	// inRepo runs the commands in the repository's root, with the go
	// command's caches: for `go run ./examples/…`.
	inRepo   bool
	commands []readmeCommand
	// goSource is the block's text when it is a Go program (marker option
	// "go"), and goOutput what its "// Output:" comment says it prints.
	goSource string
	goOutput []string
}

// readmeSkip is a block marked skip: where, and why it is not run.
type readmeSkip struct {
	line int // of the marker
	why  string
}

// isFence reports whether line opens or closes a fenced block, indented
// (inside a list item) or not, and returns its indentation.
func isFence(line string) (indent string, ok bool) {
	t := strings.TrimLeft(line, " \t")
	return line[:len(line)-len(t)], strings.HasPrefix(t, "```")
}

// parseReadme returns the marked blocks of a page named name and the
// blocks marked skip, which it passes over. An unmarked block with a "$ "
// command on any of its lines is an error, indented or not.
func parseReadme(name, text string) ([]readmeBlock, []readmeSkip, error) {
	var blocks []readmeBlock
	var skips []readmeSkip
	lines := strings.Split(text, "\n")
	// fenceAfter returns the indentation of the fence right after the
	// marker at line i.
	fenceAfter := func(i int) (string, error) {
		if i+1 < len(lines) {
			if indent, ok := isFence(lines[i+1]); ok {
				return indent, nil
			}
		}
		return "", fmt.Errorf("%s:%d: the marker is not right before a ``` fence", name, i+1)
	}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if indent, ok := isFence(lines[i]); ok {
			// An unmarked block: step over it, refusing a command.
			for i++; i < len(lines); i++ {
				if _, ok := isFence(lines[i]); ok {
					break
				}
				if strings.HasPrefix(strings.TrimPrefix(lines[i], indent), "$ ") {
					return nil, nil, fmt.Errorf("%s:%d: an example not marked %s --> (or %s skip: why -->)", name, i+1, readmeMarker, readmeMarker)
				}
			}
			continue
		}
		if !strings.HasPrefix(l, readmeMarker) {
			continue
		}
		opts := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, readmeMarker), "-->"))
		if why, ok := strings.CutPrefix(opts, "skip:"); ok {
			if strings.TrimSpace(why) == "" {
				return nil, nil, fmt.Errorf("%s:%d: a skipped block says why", name, i+1)
			}
			if _, err := fenceAfter(i); err != nil {
				return nil, nil, err
			}
			skips = append(skips, readmeSkip{line: i + 1, why: strings.TrimSpace(why)})
			// Step over the block.
			for i += 2; i < len(lines); i++ {
				if _, ok := isFence(lines[i]); ok {
					break
				}
			}
			continue
		}
		b := readmeBlock{line: i + 1}
		for _, f := range strings.Fields(opts) {
			if v, ok := strings.CutPrefix(f, "requires="); ok {
				b.requires = strings.Split(v, ",")
			} else if v, ok := strings.CutPrefix(f, "files="); ok {
				b.files = v
			} else if v, ok := strings.CutPrefix(f, "home="); ok {
				b.home = v
			} else if f == "repo" {
				b.inRepo = true
			} else if f == "go" {
				b.goSource = "\n"
			} else {
				return nil, nil, fmt.Errorf("%s:%d: unknown marker option %q", name, i+1, f)
			}
		}
		indent, err := fenceAfter(i)
		if err != nil {
			return nil, nil, err
		}
		b.indent = indent
		i += 2
		closed := false
		for ; i < len(lines); i++ {
			if _, ok := isFence(lines[i]); ok {
				closed = true
				break
			}
			l := strings.TrimPrefix(lines[i], indent)
			if b.goSource != "" {
				b.goSource += l + "\n"
				continue
			}
			if cmd, ok := strings.CutPrefix(l, "$ "); ok {
				c := readmeCommand{line: i + 1, command: cmd}
				for (strings.HasSuffix(c.command, `\`) || strings.Count(c.command, "'")%2 == 1) && i+1 < len(lines) {
					i++
					c.command += "\n" + strings.TrimPrefix(lines[i], indent)
				}
				c.last = i
				b.commands = append(b.commands, c)
				continue
			}
			if len(b.commands) == 0 {
				return nil, nil, fmt.Errorf("%s:%d: output before any \"$ \" command", name, i+1)
			}
			b.commands[len(b.commands)-1].want = append(b.commands[len(b.commands)-1].want, l)
		}
		if !closed {
			return nil, nil, fmt.Errorf("%s:%d: block not closed", name, b.line)
		}
		for k := range b.commands {
			c := &b.commands[k]
			if n := len(c.want); n > 0 && strings.TrimSpace(c.want[n-1]) == "…" {
				c.want, c.prefix = c.want[:n-1], true
			}
		}
		if b.goSource != "" {
			b.goOutput = goOutput(b.goSource)
			if b.goOutput == nil {
				return nil, nil, fmt.Errorf("%s:%d: a Go block without an \"// Output:\" comment", name, b.line)
			}
		} else if len(b.commands) == 0 {
			return nil, nil, fmt.Errorf("%s:%d: a marked block with no \"$ \" command", name, b.line)
		}
		blocks = append(blocks, b)
	}
	return blocks, skips, nil
}

// goOutput returns the lines of a program's "// Output:" comment: the text
// after "Output:" and the comment lines that follow it.
func goOutput(src string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(t, "// Output:"); ok && !in {
			in = true
			out = []string{}
			if rest = strings.TrimSpace(rest); rest != "" {
				out = append(out, rest)
			}
			continue
		}
		if in {
			rest, ok := strings.CutPrefix(t, "//")
			if !ok {
				break
			}
			out = append(out, strings.TrimPrefix(rest, " "))
		}
	}
	return out
}

// runGoBlock builds and runs a README Go program inside this module and
// returns its output.
func runGoBlock(t *testing.T, repo, src string) []string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	// A directory whose name starts with "." is outside ./... patterns.
	dir, err := os.MkdirTemp(repo, ".readme-go-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./"+filepath.Base(dir))
	cmd.Dir = repo
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, stderr.String())
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

func TestReadme(t *testing.T) {
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	run, skipped := 0, 0
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		blocks, skips, err := parseReadme(page, string(data))
		if err != nil {
			t.Error(err)
			continue
		}
		run += len(blocks)
		skipped += len(skips)
		for _, s := range skips {
			t.Logf("%s:%d: skipped: %s", page, s.line, s.why)
		}
		if page == "README.md" && len(blocks) == 0 {
			t.Fatal("no block of README.md is marked " + readmeMarker + " -->")
		}
		var edits []docEdit
		for _, b := range blocks {
			t.Run(fmt.Sprintf("%s:%d", page, b.line), func(t *testing.T) {
				edits = append(edits, runDocBlock(t, repo, page, b)...)
			})
		}
		if *update && len(edits) > 0 {
			if err := os.WriteFile(page, []byte(applyDocEdits(string(data), edits)), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d examples written", page, len(edits))
		}
	}
	t.Logf("%d blocks run, %d skipped", run, skipped)
	if skipped != readmeSkipped {
		t.Errorf("%d blocks are marked skip, not %d: a block that can run is run (the log names each skip and why); change readmeSkipped only for one that truly cannot", skipped, readmeSkipped)
	}
}

// readmeSkipped is how many blocks of README.md and docs/*.md are marked
// skip: each needs what a test cannot have (the user's own sessions or
// files, a clone of the repository with its Go toolchain, a peer
// program, a clock).
const readmeSkipped = 3

// docEdit replaces the output a page shows for one command: lines
// [from, from+n) of the page become lines.
type docEdit struct {
	from, n int
	lines   []string
}

// applyDocEdits applies edits (in page order, not overlapping) to text.
func applyDocEdits(text string, edits []docEdit) string {
	lines := strings.Split(text, "\n")
	for k := len(edits) - 1; k >= 0; k-- {
		e := edits[k]
		lines = slices.Replace(lines, e.from, e.from+e.n, e.lines...)
	}
	return strings.Join(lines, "\n")
}

// runDocBlock runs one marked block of page and reports what differs; with
// -update it returns the edits that make the page show what was printed.
func runDocBlock(t *testing.T, repo, page string, b readmeBlock) []docEdit {
	for _, prog := range b.requires {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("%s is not installed", prog)
		}
	}
	if b.goSource != "" {
		if d := diffLines(b.goOutput, runGoBlock(t, repo, b.goSource)); d != "" {
			t.Errorf("%s:%d: the Go program prints\n%s", page, b.line, d)
		}
		return nil
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8", "TZ=UTC"}
	dir := t.TempDir()
	home := filepath.Join(dir, ".home")
	for _, d := range []string{"docs", ".home"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(repo, "testdata"), filepath.Join(dir, "testdata")); err != nil {
		t.Fatal(err)
	}
	if b.home != "" {
		ents, err := os.ReadDir(filepath.Join(repo, b.home))
		if err != nil {
			t.Fatalf("%s:%d: %v", page, b.line, err)
		}
		for _, e := range ents {
			if err := os.Symlink(filepath.Join(repo, b.home, e.Name()), filepath.Join(home, "."+e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if b.inRepo {
		// The go command's caches, so that go run builds offline.
		out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOTOOLCHAIN").Output()
		if err != nil {
			t.Skipf("no go command: %v", err)
		}
		vals := strings.Split(strings.TrimSpace(string(out)), "\n")
		for k, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOTOOLCHAIN"} {
			if k < len(vals) {
				env = append(env, name+"="+vals[k])
			}
		}
		env = append(env, "GOPROXY=off")
	}
	if b.files != "" {
		ar, err := txtar.ParseFile(filepath.Join(repo, b.files))
		if err != nil {
			t.Fatalf("%s:%d: %v", page, b.line, err)
		}
		for _, f := range ar.Files {
			name := filepath.Join(dir, f.Name)
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var edits []docEdit
	status := 0
	wd := dir
	if b.inRepo {
		wd = repo
	}
	for _, c := range b.commands {
		if to, ok := strings.CutPrefix(c.command, "cd "); ok && !strings.ContainsAny(to, ";&|$`") {
			// "cd DIR" alone moves the block's later commands.
			wd = filepath.Join(wd, strings.TrimSpace(to))
			continue
		}
		// "(exit N)" first gives $? the previous command's status.
		cmd := exec.Command("sh", "-c", fmt.Sprintf("(exit %d); %s", status, c.command))
		cmd.Dir = wd
		cmd.Env = append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		status = 0
		if err := cmd.Run(); err != nil {
			ee, exit := err.(*exec.ExitError)
			if !exit {
				t.Fatalf("%s:%d: %v", page, c.line, err)
			}
			// A non-zero status is fine: the page shows it with
			// "echo $?" when it matters.
			status = ee.ExitCode()
		}
		// The home's path is shown as ~, as the page writes it.
		got := strings.Split(strings.TrimSuffix(strings.ReplaceAll(out.String(), home, "~"), "\n"), "\n")
		if out.Len() == 0 {
			got = nil
		}
		if c.prefix && len(got) > len(c.want) {
			got = got[:len(c.want)]
		}
		if d := diffLines(c.want, got); d != "" {
			if *update {
				shown := make([]string, len(got))
				for k, l := range got {
					if l != "" {
						l = b.indent + l
					}
					shown[k] = l
				}
				edits = append(edits, docEdit{from: c.last + 1, n: len(c.want), lines: shown})
				continue
			}
			t.Errorf("%s:%d: $ %s\n%s", page, c.line, c.command, d)
		}
	}
	// Files written under docs/ are the committed ones.
	written, _ := filepath.Glob(filepath.Join(dir, "docs", "*"))
	for _, w := range written {
		committed, err := os.ReadFile(filepath.Join(repo, "docs", filepath.Base(w)))
		if err != nil {
			t.Errorf("%s:%d: writes docs/%s, which the repository lacks", page, b.line, filepath.Base(w))
			continue
		}
		made, _ := os.ReadFile(w)
		if !bytes.Equal(made, committed) {
			t.Errorf("%s:%d: docs/%s differs from what the command writes", page, b.line, filepath.Base(w))
		}
	}
	return edits
}

// diffLines describes the first difference between the page's lines and
// the command's, or returns "".
func diffLines(want, got []string) string {
	for i := 0; i < max(len(want), len(got)); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if i >= len(want) || i >= len(got) || w != g {
			var b strings.Builder
			fmt.Fprintf(&b, "output line %d:\n  page: %q\n  got:  %q\nwhole output:\n", i+1, w, g)
			w := bufio.NewWriter(&b)
			for _, l := range got {
				fmt.Fprintln(w, "  "+l)
			}
			w.Flush()
			return b.String()
		}
	}
	return ""
}

func TestParseReadme(t *testing.T) {
	text := "intro\n<!-- readme-test requires=jq -->\n```\n$ a \\\n  b\nout 1\nout 2\n$ c\n…\n```\n<!-- readme-test skip: reads your home -->\n```\n$ not run\n```\n```sh\nno command\n```\n"
	blocks, skips, err := parseReadme("t.md", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(skips) != 1 || skips[0].line != 11 || skips[0].why != "reads your home" {
		t.Errorf("skips: %+v", skips)
	}
	if len(blocks) != 1 || blocks[0].line != 2 || len(blocks[0].requires) != 1 || blocks[0].requires[0] != "jq" {
		t.Fatalf("blocks: %+v", blocks)
	}
	cs := blocks[0].commands
	if len(cs) != 2 || cs[0].command != "a \\\n  b" || cs[0].last != 4 || strings.Join(cs[0].want, "|") != "out 1|out 2" || cs[0].prefix ||
		cs[1].command != "c" || len(cs[1].want) != 0 || !cs[1].prefix {
		t.Errorf("commands: %+v", cs)
	}
	// A block in a list item: its indentation is not part of the
	// commands or their output.
	blocks, _, err = parseReadme("t.md", "- item:\n\n  <!-- readme-test -->\n  ```\n  $ a\n  out\n\n  ```\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || blocks[0].indent != "  " || len(blocks[0].commands) != 1 || blocks[0].commands[0].command != "a" || strings.Join(blocks[0].commands[0].want, "|") != "out|" {
		t.Errorf("indented block: %+v", blocks)
	}
	for _, bad := range []string{"```\n$ not marked\n```\n", "  ```\n  $ not marked, in a list item\n  ```\n", "```sh\n# a comment first\n$ not marked\n```\n", "<!-- readme-test skip: -->\n```\n$ a\n```\n", "<!-- readme-test -->\ntext\n", "<!-- readme-test -->\n```\n$ a\n", "<!-- readme-test x=1 -->\n```\n$ a\n```\n", "<!-- readme-test -->\n```\nout\n```\n"} {
		if _, _, err := parseReadme("t.md", bad); err == nil {
			t.Errorf("parseReadme(%q): no error", bad)
		}
	}
}

func TestGoOutput(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"one line", "func main() {\n\tfmt.Println(1)\n\t// Output: 1\n}\n", []string{"1"}},
		{"several lines", "\t// Output:\n\t// a\n\t// b\n}\n", []string{"a", "b"}},
		{"none", "func main() {}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := goOutput(tt.src)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || (got == nil) != (tt.want == nil) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestApplyDocEdits: -update puts what was printed in place of what a
// page showed, the shorter and the longer alike, later lines untouched.
func TestApplyDocEdits(t *testing.T) {
	text := "a\n$ one\nold 1\nold 2\n$ two\nold 3\nz"
	got := applyDocEdits(text, []docEdit{{from: 2, n: 2, lines: []string{"new 1"}}, {from: 5, n: 1, lines: []string{"new 2", "new 3"}}})
	if want := "a\n$ one\nnew 1\n$ two\nnew 2\nnew 3\nz"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
