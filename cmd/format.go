package cmd

// formatRuleHelp states, in every report-writing command's help, how the
// report's format is chosen.
const formatRuleHelp = `
FORMAT
  The report is a table when it is written to a terminal and JSON when it
  is not (a pipe, a file, -o FILE), as gh does; --format chooses.
`

// formatFlagHelp is the --format flag's usage line; valid lists the
// formats, table and json first.
func formatFlagHelp(valid string) string {
	return "report `FORMAT`: " + valid + " (default: table on a terminal, json otherwise)"
}

// reportFormat is format when it was given, else "table" when the report
// goes to the terminal (standard output is one and no file is named) and
// "json" when it does not.
func (a *app) reportFormat(format string, toStdout bool) string {
	if format != "" {
		return format
	}
	if toStdout && a.io.OutIsTerminal {
		return "table"
	}
	return "json"
}

// toStdout reports whether output (an -o value) means standard output.
func toStdout(output string) bool { return output == "" || output == "-" }
