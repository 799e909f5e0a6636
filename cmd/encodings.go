package cmd

// The command offers every exact encoding, so it links in both tables, and
// any tokenizer.json (by path or hf:ORG/NAME).
import (
	_ "github.com/harpe-dev/harpe/pkg/tokenize/cl100k"
	_ "github.com/harpe-dev/harpe/pkg/tokenize/hf"
	_ "github.com/harpe-dev/harpe/pkg/tokenize/o200k"
)

// tokenizerHelp ends each --tokenizer flag's help.
const tokenizerHelp = ", a tokenizer.json path, or hf:ORG/NAME from the Hugging Face cache"
