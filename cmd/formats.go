package cmd

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// formatsOptions are the flags of harpe formats.
type formatsOptions struct {
	format string
	output string
}

func newFormatsCmd(a *app) *cobra.Command {
	opts := &formatsOptions{}
	c := &cobra.Command{
		Use:   "formats",
		Short: "List the session and transcript formats harpe reads",
		Long: `List what harpe transcript, replay, fit and count --transcript read: each
format's name (the value --input-format takes), the harness, API or tool
that writes it, the kinds of file it comes in, and the directories where
the harness keeps its sessions. harpe transcript with no path, standard
input a terminal, reads those directories that exist ($VAR counts only
when the variable is set). A file found under one of them whose format
cannot be told from its content is read as that harness's format.

Formats are told from the content, never the file name: from the first
records that carry a format's marks, looking past up to 100 records (within
the first MiB) of types no format claims; see docs/transcripts.md.
` + exitStatusHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.format = a.reportFormat(opts.format, toStdout(opts.output))
			if err := checkFormat(opts.format, "json", "table"); err != nil {
				return err
			}
			infos := transcript.FormatInfos()
			return a.writeOutput(opts.output, func(w io.Writer) error {
				if opts.format == "json" {
					return writeJSON(w, infos)
				}
				rows := make([][]string, len(infos))
				for i, f := range infos {
					dirs := strings.Join(f.Dirs, ", ")
					if dirs == "" {
						dirs = "-"
					}
					rows[i] = []string{string(f.Name), f.Harness, f.Files, dirs}
				}
				return renderTable(w, []string{"format", "harness", "files", "directories"}, rows, nil)
			})
		},
	}
	f := c.Flags()
	f.StringVarP(&opts.format, "format", "f", "", formatFlagHelp("table or json"))
	f.StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	return c
}
