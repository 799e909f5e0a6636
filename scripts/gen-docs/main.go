// Command gen-docs writes harpe's man pages and shell completions from the
// command tree, so they always match the flags and help of the build:
//
//	go run ./scripts/gen-docs -out dist/docs
//
// It writes <out>/man/harpe.1, one page per subcommand (harpe-synthesize.1,
// …), and <out>/completions/harpe.{bash,zsh,fish}. Release builds run it
// (.goreleaser.yaml) and ship the files in the archives.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/harpe-dev/harpe/cmd"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

func main() {
	out := flag.String("out", "dist/docs", "write into `DIR`")
	flag.Parse()
	if err := generate(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen-docs:", err)
		os.Exit(1)
	}
}

// generate writes the man pages and completions under dir.
func generate(dir string) error {
	root := cmd.Command()
	root.DisableAutoGenTag = true // no date in the pages: the same build gives the same files
	man := filepath.Join(dir, "man")
	comp := filepath.Join(dir, "completions")
	for _, d := range []string{man, comp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	header := &doc.GenManHeader{Title: "HARPE", Section: "1", Source: "harpe " + cmd.Version(), Manual: "harpe manual"}
	if err := doc.GenManTree(root, header, man); err != nil {
		return err
	}
	for name, gen := range map[string]func(*cobra.Command, string) error{
		"harpe.bash": func(c *cobra.Command, p string) error { return c.GenBashCompletionFileV2(p, true) },
		"harpe.zsh":  func(c *cobra.Command, p string) error { return c.GenZshCompletionFile(p) },
		"harpe.fish": func(c *cobra.Command, p string) error { return c.GenFishCompletionFile(p, true) },
	} {
		if err := gen(root, filepath.Join(comp, name)); err != nil {
			return err
		}
	}
	return nil
}
