// Package cmd is harpe's command line: one file per subcommand, each with an
// options struct, a constructor that binds flags to it, and a run function.
// Commands parse flags, open inputs, call a package under pkg/, and format
// the result; the work itself lives in the library.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/harpe-dev/harpe/internal/abort"
	"github.com/harpe-dev/harpe/internal/atomicout"
	"github.com/harpe-dev/harpe/internal/config"
	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/internal/spool"
	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/internal/termtext"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// version is stamped at release with
// -ldflags "-X github.com/harpe-dev/harpe/cmd.version=v1.2.3".
var version = "dev"

// Version reports the stamped version, or the module version the binary was
// built from, or "dev".
func Version() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

// IO holds the streams a command reads and writes. Nothing below Main touches
// os.Stdin, os.Stdout or os.Stderr directly.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// ErrIsTerminal switches on progress reports, which go to Err.
	ErrIsTerminal bool
	// OutIsTerminal makes reports tables by default (JSON otherwise).
	OutIsTerminal bool
	// OutColumns is the width of the terminal Out is, 0 when it is not
	// one: tables fit it when the report goes to Out.
	OutColumns int
	// InIsTerminal says that In is a terminal: transcript and replay
	// given no path then read the harnesses' directories, not In.
	InIsTerminal bool
}

// app is what every subcommand shares: the streams, the run's context, the
// configuration layers and the outputs staged for the end of the run.
type app struct {
	io         IO
	ctx        context.Context
	configFile string
	config     *configFile // the configuration file, once read
	// lookupEnv reads HARPE_* variables; os.LookupEnv outside tests.
	lookupEnv func(string) (string, bool)
	// out collects what the run writes; Run commits it on success.
	out atomicout.Set
	// aborts are run when the process is stopped before the command
	// returns (Main's watchdog): they end child processes.
	aborts abort.Hooks
	// exiting is claimed by whoever ends the run: Run's return or the
	// watchdog, never both.
	exiting atomic.Bool
	// distillTimeout bounds each --distill-cmd run.
	distillTimeout time.Duration
	// cmdLine holds the flags the command line set (see flaguse.go).
	cmdLine map[string]bool
	// fromConfig names where applyConfig took each flag it set
	// ("HARPE_FORMAT", "harpe.yaml:3: format"), so that an error about
	// the value can say where the value came from.
	fromConfig map[string]string
	// stdinHeld is standard input held to be read more than once
	// (holdStdin), nil until then.
	stdinHeld *spool.Spool
	// priceFile and priceAs are --prices and --price-as (see
	// addPriceFlags).
	priceFile, priceAs string
	// tableColumns is the width of the terminal the run's report goes to,
	// 0 when it goes elsewhere (a pipe, a file named by -o); eastAsian
	// says whether the terminal draws East Asian ambiguous characters two
	// columns wide. Both are set once per run, before the command runs.
	tableColumns int
	eastAsian    bool
	// maxRecord is --max-record, in MiB (0: no limit).
	maxRecord int
	// missingPaths is set when a named path did not exist: the others
	// were read and reported, and the run ends with status 1.
	missingPaths bool
	missingSaid  map[string]bool // the missing paths said on stderr
	// strictLines is --strict of transcript and replay: a broken line in
	// a JSON Lines session log is an error (exit 2), not skipped.
	strictLines bool
	// leftOut is what the run's inputs left out of its report.
	leftOut leftOut
}

// addStrictLinesFlag adds --strict to a command that reads session logs.
func (a *app) addStrictLinesFlag(c *cobra.Command) {
	c.Flags().BoolVar(&a.strictLines, "strict", false, "a line of a JSON Lines session log that is not JSON is an error (exit 2), not skipped, counted and named")
}

// readContext is the context transcripts are read under: --strict's
// rule for broken lines, and a file in a harness's layout read as that
// harness's format when its content does not tell.
func (a *app) readContext() context.Context {
	ctx := transcript.WithHarnessLayouts(a.ctx)
	if a.strictLines {
		ctx = transcript.WithStrictLines(ctx)
	}
	return ctx
}

// tableOptions is how tables are drawn on standard output (toFile false)
// or in a file: to the terminal's width when the report goes to one wider
// than 80 columns, else 80.
func (a *app) tableOptions(toFile bool) table.Options {
	w := minTableWidth
	if !toFile {
		w = max(w, a.tableColumns)
	}
	return table.Options{Width: w, EastAsian: a.eastAsian}
}

// stopGrace is how long a command has, after SIGINT or SIGTERM cancels
// its context, to return by itself. Past it (or at a second signal) Main
// ends child processes, removes staged files and exits with status 130:
// some loops in pkg/ do not watch the context yet.
const stopGrace = 250 * time.Millisecond

// Main runs harpe with args (without the program name) and returns the exit
// status. It is the only function that looks at the process itself: signals,
// whether stderr is a terminal, and the width of standard output when it is
// one (tables fit it).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	streams := IO{In: stdin, Out: stdout, Err: stderr}
	if f, ok := stderr.(*os.File); ok {
		streams.ErrIsTerminal = term.IsTerminal(int(f.Fd()))
	}
	if f, ok := stdin.(*os.File); ok {
		streams.InIsTerminal = term.IsTerminal(int(f.Fd()))
	}
	if f, ok := stdout.(*os.File); ok && f == os.Stdout && stdoutClosed(f) {
		// Nothing written would reach anyone: say so before any work.
		fmt.Fprintln(stderr, "harpe: stdout: standard output is closed, so the output would be lost (to discard it, send it to /dev/null)")
		return ExitWrite
	}
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		streams.OutIsTerminal = true
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			streams.OutColumns = cols
		}
	}
	a := newApp(ctx, streams, os.LookupEnv)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		cancel()
		grace := time.NewTimer(stopGrace)
		defer grace.Stop()
		select {
		case <-done:
			return
		case <-sigs:
		case <-grace.C:
		}
		if !a.exiting.CompareAndSwap(false, true) {
			return // Run is already reporting
		}
		a.aborts.Run()
		a.out.Abort()
		if streams.ErrIsTerminal {
			fmt.Fprint(stderr, "\r\033[K") // clear a progress line
		}
		fmt.Fprintln(stderr, "harpe: interrupted")
		os.Exit(ExitInterrupted)
	}()
	return a.run(args)
}

// Run is Main without the process: it executes one command line against the
// given streams and environment lookup and returns the exit status.
func Run(ctx context.Context, args []string, streams IO, lookupEnv func(string) (string, bool)) int {
	return newApp(ctx, streams, lookupEnv).run(args)
}

func newApp(ctx context.Context, streams IO, lookupEnv func(string) (string, bool)) *app {
	return &app{io: streams, ctx: ctx, lookupEnv: lookupEnv, distillTimeout: defaultDistillTimeout}
}

// run executes the command line, commits the staged outputs when it
// succeeded and prints its error once.
func (a *app) run(args []string) int {
	root := newTree(a, a.onlyCommand(args))
	if isCompletionRequest(args) {
		plainUsages(root)
	}
	checkCompletionArgs(root)
	root.SetArgs(args)
	err := root.ExecuteContext(a.ctx)
	// A negative answer (fit: does not fit) is a result too: its output
	// lands.
	if (err == nil || errors.Is(err, errNegative)) && a.ctx.Err() == nil {
		if cerr := a.out.Commit(a.ctx, a.io.Out); cerr != nil {
			err = outputError(cerr)
		}
	} else {
		a.out.Abort()
	}
	if !a.exiting.CompareAndSwap(false, true) {
		// The watchdog is ending the process and says so itself.
		select {}
	}
	streams := a.io
	if a.ctx.Err() != nil {
		fmt.Fprintln(streams.Err, "harpe: interrupted")
		return ExitInterrupted
	}
	if err == nil && a.missingPaths {
		return ExitMissing // each named on stderr as it was found missing
	}
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			// A message may quote a file's name or content: what a
			// terminal would act on is shown escaped, line by line.
			fmt.Fprintf(streams.Err, "harpe: %s%s\n", termtext.Lines(a.valueSource(ee.err.Error())), flagHint(ee.err))
		}
		if ee.usageOf != nil {
			fmt.Fprintf(streams.Err, "Run '%s --help' for usage.\n", ee.usageOf.CommandPath())
		}
	} else {
		fmt.Fprintf(streams.Err, "harpe: %s\n", termtext.Lines(commandError(err).Error()))
	}
	return exitCode(err)
}

// exitCode chooses the exit status from the error's type, the one place
// that does: an error with an ExitCode method gives its own (exitError:
// bad usage and bad input 2, a failed write 1, --strict 3, a negative
// answer 1); a cancelled run is 130; anything else, such as the errors
// cobra makes itself (unknown command, wrong number of args), is a usage
// error.
func exitCode(err error) int {
	var coded interface{ ExitCode() int }
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &coded):
		return coded.ExitCode()
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	}
	return ExitUsage
}

// flagHint is what to add to a library error to name the flag that
// helps: the transcript package speaks of formats, not of flags.
func flagHint(err error) string {
	var nr *transcript.NoRecordsError
	if errors.As(err, &nr) && nr.Found != "" {
		return fmt.Sprintf(" (drop --input-format, or name %s)", nr.Found)
	}
	var uf *transcript.UnknownFormatError
	if errors.As(err, &uf) {
		return " (use --input-format to name one)"
	}
	return ""
}

// subcommands are harpe's commands in the order help lists them, one
// constructor per file in this package.
var subcommands = []struct {
	name  string
	build func(a *app) *cobra.Command
}{
	{"synthesize", newSynthesizeCmd},
	{"fit", newFitCmd},
	{"count", newCountCmd},
	{"models", newModelsCmd},
	{"dates", newDatesCmd},
	{"conflicts", newConflictsCmd},
	{"transcript", newTranscriptCmd},
	{"formats", newFormatsCmd},
	{"replay", func(a *app) *cobra.Command {
		c := newReplayCmd(a)
		addDistillFlags(a, c)
		return c
	}},
}

// onlyCommand returns the name of the one subcommand that args run, when
// building it alone gives the same run as building the whole tree, else
// "". Building every command with all its flags was a sixth of harpe's
// own start-up work. The whole tree is needed for help and completion
// (no subcommand, root flags first, "help", "__complete"), for cobra's
// suggestions (a name that is no command's), and for the check of a
// configuration file's keys against every command's flags (a harpe.yaml
// found, or named by --config or HARPE_CONFIG).
func (a *app) onlyCommand(args []string) string {
	if len(args) == 0 {
		return ""
	}
	name := args[0]
	known := false
	for _, sc := range subcommands {
		known = known || sc.name == name
	}
	if !known {
		return ""
	}
	for _, arg := range args {
		if arg == "--" {
			break
		}
		if arg == "--config" || strings.HasPrefix(arg, "--config=") {
			return ""
		}
	}
	if p, ok := a.lookupEnv("HARPE_CONFIG"); ok && p != "" {
		return ""
	}
	if config.Locate().Path != "" {
		return ""
	}
	return name
}

// newRootCmd builds the whole command tree.
func newRootCmd(a *app) *cobra.Command { return newTree(a, "") }

// newTree builds the command tree: every subcommand, or only the one
// named only (see onlyCommand).
func newTree(a *app, only string) *cobra.Command {
	root := &cobra.Command{
		Use:   "harpe",
		Short: "Choose what goes into each model call, under a token budget",
		Long: `harpe decides what goes into each call to a language model under a token
budget. It reads context items (JSONL) or a saved conversation transcript on
standard input or from files, and writes a report or the selected items.

Configuration: flags beat HARPE_* environment variables (HARPE_BUDGET,
HARPE_SYNTHESIZE_BUDGET), which beat harpe.yaml (in the current directory,
then the user config directory; --config names another), which beats the
defaults. Flags that run a program or name a file to write (--distill-cmd,
-o, --report, --plot) are not taken from a harpe.yaml in the current
directory, only from one named by --config or in the user config
directory.

Reports (transcript, replay, synthesize, fit, conflicts, models) are a table
on a terminal and JSON otherwise; --format chooses. count writes its
wc-like lines either way.

EXIT STATUS
  0    done
  1    a negative answer (fit: the history does not fit)
  2    bad usage or bad input (the message names the file and line)
  3    refused by --strict
  130  interrupted`,
		Version:           Version(),
		SilenceErrors:     true,
		SilenceUsage:      true,
		CompletionOptions: cobra.CompletionOptions{},
		PersistentPreRunE: func(c *cobra.Command, _ []string) error {
			a.recordCommandLine(c)
			if err := a.applyConfig(c); err != nil {
				return err
			}
			if err := a.setMaxRecord(); err != nil {
				return err
			}
			if err := checkOutputsDistinct(c); err != nil {
				return err
			}
			// Tables fit the terminal only when they are written to it:
			// a report saved with -o gets the 80 columns of a file.
			a.tableColumns = a.io.OutColumns
			if f := c.Flags().Lookup("output"); f != nil && f.Value.String() != "" && f.Value.String() != "-" {
				a.tableColumns = 0
			}
			a.eastAsian = table.EastAsianFromEnv(a.lookupEnv)
			return nil
		},
	}
	root.SetVersionTemplate("harpe {{.Version}}\n")
	root.SetIn(a.io.In)
	// Help and --version text goes to stdout; errors never reach cobra's
	// writers because the root silences them.
	root.SetOut(a.io.Out)
	root.SetErr(a.io.Err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: ExitUsage, err: flagError(c, err), usageOf: c}
	})
	root.PersistentFlags().StringVar(&a.configFile, "config", "", "read configuration from `FILE` instead of harpe.yaml")
	root.PersistentFlags().IntVar(&a.maxRecord, "max-record", jsonl.DefaultMaxLine>>20, "hold at most `MIB` MiB of one JSON Lines record (a longer one is an error, or skipped in a session log); 0 for no limit")

	for _, sc := range subcommands {
		if only == "" || sc.name == only {
			root.AddCommand(sc.build(a))
		}
	}
	// Every report-writing command's help states the format rule.
	for _, c := range root.Commands() {
		if f := c.Flags().Lookup("format"); f != nil && f.DefValue == "" {
			c.Long = strings.Replace(c.Long, "\nEXIT STATUS", formatRuleHelp+"\nEXIT STATUS", 1)
		}
	}
	markSensitive(root)
	registerCompletions(a, root)
	return root
}

// valueSource prefixes an error about a flag's value ("--format: …") with
// where the value came from when it was not the command line
// ("HARPE_FORMAT: --format: …"): otherwise a value set in the environment
// or harpe.yaml for another command reads as a flag nobody typed.
func (a *app) valueSource(msg string) string {
	if !strings.HasPrefix(msg, "--") {
		return msg
	}
	name, _, ok := strings.Cut(msg[2:], ":")
	if src := a.fromConfig[name]; ok && src != "" {
		return src + ": " + config.Elide(msg)
	}
	return msg
}

// checkCompletionArgs makes cobra's own completion command runnable, so
// that it checks its arguments: left alone it printed its help with exit
// status 0 for any argument ("harpe completion bsh"); now an unknown shell
// is a usage error. It is done at run time only, so the tree that
// scripts/gen-docs renders (without the completion command) is unchanged.
func checkCompletionArgs(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		if c.RunE == nil && c.Run == nil {
			c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		}
		// Every command's help ends with its exit statuses, cobra's too.
		for _, sc := range append([]*cobra.Command{c}, c.Commands()...) {
			if !strings.Contains(sc.Long, "EXIT STATUS") {
				sc.Long = strings.TrimRight(sc.Long, "\n") + "\n" + exitStatusHelp
			}
		}
	}
}

// Command returns harpe's command tree with its flags and help, for tools
// that generate man pages and shell completions from it
// (scripts/gen-docs). It is not for running commands: Main does that.
func Command() *cobra.Command {
	a := newApp(context.Background(), IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard},
		func(string) (string, bool) { return "", false })
	return newRootCmd(a)
}
