package cmd

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/harpe-dev/harpe/internal/config"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize/hf"
)

// Flags whose value runs a program or names a file to write are sensitive
// (see config.Sensitive): a configuration file that just happens to sit in
// the working directory may not set them. The property is an annotation on
// the flag, set by markSensitive.
const sensitiveAnnotation = "harpe_sensitive"

// markSensitive annotates the sensitive flags of c and its subcommands.
func markSensitive(c *cobra.Command) {
	mark := func(f *pflag.Flag) {
		if f.Name == "config" || f.Name == "help" {
			return
		}
		placeholder, _ := pflag.UnquoteUsage(f)
		if reason := config.Sensitive(f.Name, placeholder); reason != "" {
			if f.Annotations == nil {
				f.Annotations = map[string][]string{}
			}
			f.Annotations[sensitiveAnnotation] = []string{reason}
		}
	}
	c.Flags().VisitAll(mark)
	c.PersistentFlags().VisitAll(mark)
	for _, sub := range c.Commands() {
		markSensitive(sub)
	}
}

// sensitiveReason is why f may not come from an untrusted configuration
// file, or "" when it may.
func sensitiveReason(f *pflag.Flag) string {
	if r := f.Annotations[sensitiveAnnotation]; len(r) > 0 {
		return r[0]
	}
	return ""
}

// configFile is the configuration file read for a run.
type configFile struct {
	*config.File // Path "" when there is none
	// trusted is false for a harpe.yaml found in the working directory
	// (and for one in the user config directory that the user does not
	// own): its sensitive keys are ignored.
	trusted bool
	why     string // why it is not trusted
	// noted are the keys already reported, so each is reported once.
	noted map[string]bool
}

// loadConfigFile returns the configuration file, read once per run:
// --config (or HARPE_CONFIG) when given, else harpe.yaml in the current
// directory, else in the user config directory (~/.config/harpe/harpe.yaml
// on Linux). A missing default file is not an error; a named file that is
// missing or unreadable is, and so is any config that is not a regular file
// or is larger than maxConfigSize.
func (a *app) loadConfigFile() (*configFile, error) {
	if a.config != nil {
		return a.config, nil
	}
	cf, err := a.readConfigFile()
	if err != nil {
		return nil, err
	}
	a.config = cf
	return cf, nil
}

func (a *app) readConfigFile() (*configFile, error) {
	cf := newConfigFile()
	path := a.configFile
	if path == "" {
		if p, ok := a.lookupEnv("HARPE_CONFIG"); ok && p != "" {
			path = p
		}
	}
	if path == "" {
		loc := config.Locate()
		if loc.Path == "" {
			return cf, nil
		}
		path, cf.trusted, cf.why = loc.Path, loc.Trusted, loc.Why
	}
	if path == os.DevNull {
		// "--config /dev/null": no configuration at all.
		return cf, nil
	}
	data, err := config.ReadFile(path)
	if err != nil {
		return nil, inputError(err)
	}
	if cf.File, err = config.ParseFile(path, data); err != nil {
		return nil, usageErrorf("%v", err)
	}
	return cf, nil
}

// newConfigFile is an empty, trusted configuration.
func newConfigFile() *configFile {
	f, _ := config.Parse(nil)
	return &configFile{File: f, trusted: true, noted: map[string]bool{}}
}

// applyConfig fills every flag of c that the command line left unset from,
// in order, HARPE_<COMMAND>_<FLAG>, HARPE_<FLAG> (when not empty), the config file's
// <command>.<flag> and its top-level <flag>. Values set this way count as
// explicit (the flag reads as Changed), so they beat presets such as
// --model just as a flag would. A sensitive flag (see markSensitive) is
// not taken from an untrusted file; that is said on stderr. Unknown keys
// in the file are reported on stderr, with a suggestion.
func (a *app) applyConfig(c *cobra.Command) error {
	cf, err := a.loadConfigFile()
	if err != nil {
		return err
	}
	// Shell completion (cobra's hidden __complete) runs this too; its
	// stderr reaches the user's prompt, so it stays quiet.
	notes := a.io.Err
	if strings.HasPrefix(c.Name(), "__complete") {
		notes = io.Discard
	}
	if cf.Path != "" {
		a.reportUnknownKeys(notes, c.Root(), cf)
	}
	v := cf.File
	cmdKey := strings.ReplaceAll(c.Name(), "-", "_")
	var firstErr error
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if firstErr != nil || f.Changed || f.Name == "help" || f.Name == "config" || f.Name == "version" {
			return
		}
		flagKey := strings.ReplaceAll(f.Name, "-", "_")
		for _, env := range []string{"HARPE_" + strings.ToUpper(cmdKey+"_"+flagKey), "HARPE_" + strings.ToUpper(flagKey)} {
			// An empty variable counts as unset, as in most shells' tools.
			if s, ok := a.lookupEnv(env); ok && s != "" {
				if err := setFlag(c, f, s); err != nil {
					firstErr = usageErrorf("%s: %s", env, config.Elide(flagError(c, err).Error()))
				}
				a.noteConfigSource(f.Name, env)
				return
			}
		}
		for _, key := range []string{c.Name() + "." + f.Name, f.Name, c.Name() + "." + flagKey, flagKey} {
			if !v.IsSet(key) {
				continue
			}
			if reason := sensitiveReason(f); reason != "" && !cf.trusted {
				if !cf.noted[key] {
					cf.noted[key] = true
					fmt.Fprintf(notes, "harpe: %s: ignoring %s: --%s %s, and %s; pass --%s or %s, or name the file with --config\n",
						cf.Where(key), key, f.Name, reason, cf.why, f.Name, "HARPE_"+strings.ToUpper(cmdKey+"_"+flagKey))
				}
				return
			}
			vals := config.Values(v.Get(key))
			if !cf.trusted && f.Name == "tokenizer" {
				if p := tokenizerPath(vals); p != "" {
					if !cf.noted[key] {
						cf.noted[key] = true
						fmt.Fprintf(notes, "harpe: %s: ignoring %s: %q names a tokenizer.json to read, and %s; pass --%s or %s, or name the file with --config\n",
							cf.Where(key), key, p, cf.why, f.Name, "HARPE_"+strings.ToUpper(cmdKey+"_"+flagKey))
					}
					return
				}
			}
			for _, s := range vals {
				if err := setFlag(c, f, s); err != nil {
					firstErr = usageErrorf("%s: %s: %s", cf.Where(key), key, config.Elide(flagError(c, err).Error()))
					return
				}
			}
			a.noteConfigSource(f.Name, cf.Where(key)+": "+key)
			return
		}
	})
	return firstErr
}

// noteConfigSource records that flag name took its value from src (see
// app.valueSource).
func (a *app) noteConfigSource(name, src string) {
	if a.fromConfig == nil {
		a.fromConfig = map[string]string{}
	}
	a.fromConfig[name] = src
}

// setFlag sets f from a configuration value. Boolean flags take what
// people write (see config.ParseBool).
func setFlag(c *cobra.Command, f *pflag.Flag, s string) error {
	if f.Value.Type() == "bool" {
		b, ok := config.ParseBool(s)
		if !ok {
			return fmt.Errorf("--%s: %q is not yes or no (also true/false, on/off, 1/0)", f.Name, s)
		}
		s = b
	}
	return c.Flags().Set(f.Name, s)
}

// reportUnknownKeys says on stderr, once per run, which keys of the file
// no command reads, with the closest known key when one is near. Known
// keys: at the top level, a command's name (holding a section) or any
// flag of any command; in a command's section, that command's flags.
// Dashes and underscores are the same.
func (a *app) reportUnknownKeys(w io.Writer, root *cobra.Command, cf *configFile) {
	if cf.noted["\x00unknown"] {
		return
	}
	cf.noted["\x00unknown"] = true
	skip := map[string]bool{"help": true, "config": true, "version": true}
	sections := map[string]map[string]bool{}
	anyFlag := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		flags := map[string]bool{}
		add := func(f *pflag.Flag) {
			if !skip[f.Name] {
				flags[f.Name] = true
				anyFlag[f.Name] = true
			}
		}
		c.Flags().VisitAll(add)
		c.InheritedFlags().VisitAll(add)
		if c != root && !c.Hidden {
			sections[c.Name()] = flags
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for s := range sections {
		anyFlag[s] = true
	}
	schema := config.Schema{Sections: sections, Top: anyFlag, FreeForm: freeFormKeys}
	for _, u := range cf.Unknown(schema) {
		fmt.Fprintln(w, config.Elide("harpe: "+u.Message(cf.Path)))
	}
}

// freeFormKeys are top-level keys that are not flags and hold entries of
// their own: models: adds model presets (see harpe models).
var freeFormKeys = map[string]bool{"models": true}

// tokenizerPath returns the first of a --tokenizer flag's values that
// names a tokenizer.json by its path, or "". hf:ORG/NAME names a file of
// the Hugging Face cache, not one of the configuration's choosing.
func tokenizerPath(vals []string) string {
	for _, v := range vals {
		for _, n := range strings.Split(v, ",") {
			n = strings.TrimSpace(n)
			if hf.IsName(n) && !strings.HasPrefix(n, "hf:") {
				return n
			}
		}
	}
	return ""
}

// trustedModels returns the "models:" section of cf as far as cf may set
// it: all of it from a trusted file; from an untrusted one (a harpe.yaml
// in the working directory), without the tokenizer.json paths it names
// (harpe would read them) and without the prices it gives models that
// already have prices (it would change what a run costs). What is left
// out is said on stderr, once per key.
func (a *app) trustedModels(cf *configFile) any {
	models := cf.Get("models")
	m, ok := models.(map[string]any)
	if cf.trusted || !ok {
		return models
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	out := make(map[string]any, len(m))
	for _, name := range names {
		entry, ok := m[name].(map[string]any)
		if !ok {
			out[name] = m[name]
			continue
		}
		kept := make(map[string]any, len(entry))
		for k, v := range entry {
			kept[k] = v
		}
		key := "models." + name
		if tok, ok := entry["tokenizer"].(string); ok && tokenizerPath([]string{tok}) != "" {
			delete(kept, "tokenizer")
			a.noteUntrusted(cf, key+".tokenizer", fmt.Sprintf("%q names a tokenizer.json to read", tok))
		}
		if _, ok := entry["prices"]; ok {
			if known, err := prices.Default().Lookup(name); err == nil && known.Prices != nil {
				delete(kept, "prices")
				a.noteUntrusted(cf, key+".prices", "it would reprice "+known.Name+", whose prices harpe has")
			}
		}
		out[name] = kept
	}
	return out
}

// noteUntrusted says on stderr, once, that key of an untrusted file is
// ignored and why.
func (a *app) noteUntrusted(cf *configFile, key, reason string) {
	if cf.noted[key] {
		return
	}
	cf.noted[key] = true
	fmt.Fprintf(a.io.Err, "harpe: %s: ignoring %s: %s, and %s; name the file with --config\n", cf.Where(key), key, reason, cf.why)
}
