// Command harpe decides what goes into each call to a language model under a
// token budget. See README.md for usage.
package main

import (
	"os"

	"github.com/harpe-dev/harpe/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
