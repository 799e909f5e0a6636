package cmd

// The command offers every exact encoding, so it links in both tables.
import (
	_ "github.com/harpe-dev/harpe/pkg/tokenize/cl100k"
	_ "github.com/harpe-dev/harpe/pkg/tokenize/o200k"
)
