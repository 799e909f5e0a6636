package main

import (
	"flag"
	"os"
	"testing"

	"github.com/harpe-dev/harpe/cmd"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script, and what the examples of README.md and docs/*.md show")

// TestMain lets the test binary stand in for the harpe command, so the
// scripts in testdata/script run the real command line end to end.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"harpe": func() { os.Exit(cmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs every testdata/script/*.txtar: each pins the stdout,
// stderr and exit status of real command lines. Run with -update to
// rewrite the expected output after a deliberate change.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// Repository samples, for scripts that read them.
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			env.Setenv("TESTDATA", wd+"/testdata")
			return nil
		},
	})
}
