package cmd

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runHarpe runs one command line in-process with stdin and no HARPE_*
// variables, and returns its exit status and what it wrote.
func runHarpe(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	stdout, stderr, code = runHarpeIO(context.Background(), stdin, false, args...)
	return code, stdout, stderr
}

// runHarpeIO is runHarpe with a context and a terminal switch for stderr.
func runHarpeIO(ctx context.Context, stdin string, terminal bool, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Run(ctx, args, IO{In: strings.NewReader(stdin), Out: &out, Err: &errb, ErrIsTerminal: terminal},
		func(string) (string, bool) { return "", false })
	return out.String(), errb.String(), code
}
