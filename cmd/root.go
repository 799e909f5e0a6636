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
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"golang.org/x/term"
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
}

// app is what every subcommand shares: the streams, the run's context and
// the configuration layers.
type app struct {
	io         IO
	ctx        context.Context
	configFile string
	config     *viper.Viper // the configuration file's values, once read
	// lookupEnv reads HARPE_* variables; os.LookupEnv outside tests.
	lookupEnv func(string) (string, bool)
	// cmdLine holds the flags the command line set (see flaguse.go).
	cmdLine map[string]bool
}

// Main runs harpe with args (without the program name) and returns the exit
// status. It is the only function that looks at the process itself: signals,
// whether stderr is a terminal, and the width of standard output when it is
// one (tables fit it).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	streams := IO{In: stdin, Out: stdout, Err: stderr}
	if f, ok := stderr.(*os.File); ok {
		streams.ErrIsTerminal = term.IsTerminal(int(f.Fd()))
	}
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			terminalColumns = cols
		}
	}
	return Run(ctx, args, streams, os.LookupEnv)
}

// Run is Main without the process: it executes one command line against the
// given streams and environment lookup and returns the exit status.
func Run(ctx context.Context, args []string, streams IO, lookupEnv func(string) (string, bool)) int {
	a := &app{io: streams, ctx: ctx, lookupEnv: lookupEnv}
	root := newRootCmd(a)
	if isCompletionRequest(args) {
		plainUsages(root)
	}
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if ctx.Err() != nil {
		fmt.Fprintln(streams.Err, "harpe: interrupted")
		return ExitInterrupted
	}
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(streams.Err, "harpe: %v\n", ee.err)
		}
		if ee.usageOf != nil {
			fmt.Fprintf(streams.Err, "Run '%s --help' for usage.\n", ee.usageOf.CommandPath())
		}
		return ee.code
	}
	// Errors cobra makes itself (unknown command, wrong number of args) are
	// usage errors.
	fmt.Fprintf(streams.Err, "harpe: %v\n", commandError(err))
	return ExitUsage
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "harpe",
		Short: "Choose what goes into each model call, under a token budget",
		Long: `harpe decides what goes into each call to a language model under a token
budget. It reads context items (JSONL) or a saved conversation transcript on
standard input or from files, and writes a report or the selected items.

Configuration: flags beat HARPE_* environment variables (HARPE_BUDGET,
HARPE_SYNTHESIZE_BUDGET), which beat harpe.yaml (in the current directory,
then the user config directory; --config names another), which beats the
defaults.

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
			return a.applyConfig(c)
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

	root.AddCommand(
		// Subcommands, one constructor per file in this package.
		newSynthesizeCmd(a),
		newFitCmd(a),
		newCountCmd(a),
		newModelsCmd(a),
		newDatesCmd(a),
		newConflictsCmd(a),
		newTranscriptCmd(a),
		newReplayCmd(a),
	)
	registerCompletions(a, root)
	return root
}

// Command returns harpe's command tree with its flags and help, for tools
// that generate man pages and shell completions from it
// (scripts/gen-docs). It is not for running commands: Main does that.
func Command() *cobra.Command {
	a := &app{
		io:        IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard},
		ctx:       context.Background(),
		lookupEnv: func(string) (string, bool) { return "", false },
	}
	return newRootCmd(a)
}
