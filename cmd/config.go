package cmd

import (
	"fmt"
	"io"
	"maps"
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

// configLayer is one configuration file read for a run.
type configLayer struct {
	*config.File
	// trusted is false for a harpe.yaml found in the working directory
	// (and for one in the user config directory that the user does not
	// own): its sensitive keys are ignored.
	trusted bool
	why     string // why it is not trusted
	local   bool   // the working directory's harpe.yaml
}

// configFile is the configuration read for a run: the file --config or
// HARPE_CONFIG names, or else the working directory's harpe.yaml and the
// user's, merged (see config.LocateAll).
type configFile struct {
	// layers are the files read, the one that wins first; none when
	// there is no configuration.
	layers []*configLayer
	// noted are the keys already reported, so each is reported once.
	noted map[string]bool
	// modelsFrom names, for each key under models: the merge took
	// ("models.gpt-4o", "models.gpt-4o.prices"), the file it came from.
	modelsFrom map[string]*configLayer
	// modelsFlags are the models command's flags (set by applyConfig).
	modelsFlags map[string]bool
}

// loadConfigFile returns the configuration, read once per run: --config
// (or HARPE_CONFIG) when given, else harpe.yaml in the current directory
// and in the user config directory (~/.config/harpe/harpe.yaml on Linux),
// the first winning key by key. A missing default file is not an error; a
// named file that is missing or unreadable is, and so is any config that
// is not a regular file or is larger than config.MaxSize.
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
	locs := []config.Location{{Path: path, Trusted: true}}
	if path == "" {
		locs = config.LocateAll()
	}
	for _, loc := range locs {
		if loc.Path == os.DevNull {
			// "--config /dev/null": no configuration at all.
			continue
		}
		data, err := config.ReadFile(loc.Path)
		if err != nil {
			return nil, inputError(err)
		}
		f, err := config.ParseFile(loc.Path, data)
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		cf.layers = append(cf.layers, &configLayer{File: f, trusted: loc.Trusted, why: loc.Why, local: loc.Local})
	}
	return cf, nil
}

// newConfigFile is an empty configuration.
func newConfigFile() *configFile {
	return &configFile{noted: map[string]bool{}}
}

// Where names key's place ("harpe.yaml:3"): in the file the merge of
// models: took it from, else in the first file that has it.
func (cf *configFile) Where(key string) string {
	k := strings.ToLower(key)
	for p := k; p != ""; {
		if l := cf.modelsFrom[p]; l != nil {
			return l.Where(key)
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	for _, l := range cf.layers {
		if _, ok := l.Lines[k]; ok {
			return l.Where(key)
		}
	}
	if len(cf.layers) > 0 {
		return cf.layers[0].Path
	}
	return ""
}

// applyConfig fills every flag of c that the command line left unset from,
// in order, HARPE_<COMMAND>_<FLAG>, HARPE_<FLAG> (when not empty), the config file's
// <command>.<flag> and its top-level <flag> (the working directory's file
// first, then the user's). Values set this way count as
// explicit (the flag reads as Changed), so they beat presets such as
// --model just as a flag would. A sensitive flag (see markSensitive) is
// not taken from an untrusted file; that is said on stderr, and the next
// file may give it. A top-level key that names a command and holds a
// mapping is that command's section, never a flag's value. Unknown keys
// in the files are reported on stderr, with a suggestion.
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
	if len(cf.layers) > 0 {
		a.reportUnknownKeys(notes, c.Root(), cf)
	}
	commands := map[string]bool{}
	for _, sub := range c.Root().Commands() {
		commands[sub.Name()] = true
		if sub.Name() == "models" && cf.modelsFlags == nil {
			cf.modelsFlags = map[string]bool{}
			sub.Flags().VisitAll(func(f *pflag.Flag) { cf.modelsFlags[f.Name] = true })
		}
	}
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
		envName := "HARPE_" + strings.ToUpper(cmdKey+"_"+flagKey)
	layers:
		for _, l := range cf.layers {
			for _, key := range []string{c.Name() + "." + f.Name, f.Name, c.Name() + "." + flagKey, flagKey} {
				if !l.IsSet(key) {
					continue
				}
				if _, isMap := l.Get(key).(map[string]any); isMap && commands[strings.ReplaceAll(key, "_", "-")] {
					continue // another command's section
				}
				if reason := sensitiveReason(f); reason != "" && !l.trusted {
					if !cf.noted[l.Path+"\x00"+key] {
						cf.noted[l.Path+"\x00"+key] = true
						fmt.Fprintf(notes, "harpe: %s: ignoring %s: --%s %s, and %s; pass --%s or %s, or name the file with --config\n",
							l.Where(key), key, f.Name, reason, l.why, f.Name, envName)
					}
					continue layers
				}
				vals := config.Values(l.Get(key))
				if !l.trusted && f.Name == "tokenizer" {
					if p := tokenizerPath(vals); p != "" {
						if !cf.noted[l.Path+"\x00"+key] {
							cf.noted[l.Path+"\x00"+key] = true
							fmt.Fprintf(notes, "harpe: %s: ignoring %s: %q names a tokenizer.json to read, and %s; pass --%s or %s, or name the file with --config\n",
								l.Where(key), key, p, l.why, f.Name, envName)
						}
						continue layers
					}
				}
				for _, s := range vals {
					if err := setFlag(c, f, s); err != nil {
						firstErr = usageErrorf("%s: %s: %s", l.Where(key), key, config.Elide(flagError(c, err).Error()))
						return
					}
				}
				if l.local && (f.Name == "price-as" || f.Name == "cache") {
					fmt.Fprintf(notes, "harpe: note: %s: %s: %s from the working directory's %s changes what the calls cost\n",
						l.Where(key), key, f.Value.String(), config.Name)
				}
				a.noteConfigSource(f.Name, l.Where(key)+": "+key)
				return
			}
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
	for _, l := range cf.layers {
		for _, u := range l.Unknown(schema) {
			fmt.Fprintln(w, config.Elide("harpe: "+u.Message(l.Path)))
		}
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

// configModels returns the "models:" sections of the files merged, model
// by model and field by field, the working directory's file winning: all
// of a trusted file's; of an untrusted one (a harpe.yaml in the working
// directory), what is left without the tokenizer.json paths it names
// (harpe would read them) and the prices it gives models that already
// have prices (it would change what a run costs). What is left out is
// said on stderr, once per key, and so is any model the working
// directory's file changes. An entry whose key is one of the models
// command's flags and whose value is not a mapping is that command's
// setting (models: {format: json}), not a model.
func (a *app) configModels(cf *configFile) (any, error) {
	var models map[string]any
	cf.modelsFrom = map[string]*configLayer{}
	for i := len(cf.layers) - 1; i >= 0; i-- {
		l := cf.layers[i]
		v := l.Get("models")
		if v == nil {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, usageErrorf("%s: models: want a mapping of model names to their fields (%s), got %s", l.Where("models"), modelFields, yamlKind(v))
		}
		if models == nil {
			models = map[string]any{}
		}
		cf.modelsFrom["models"] = l
		var changed []string
		for _, name := range sortedKeys(m) {
			entry, ok := m[name].(map[string]any)
			if !ok {
				if cf.modelsFlags[strings.ReplaceAll(name, "_", "-")] {
					continue // the models command's own setting
				}
				return nil, usageErrorf("%s: models.%s: want a mapping of %s, got %s", l.Where("models."+name), name, modelFields, yamlKind(m[name]))
			}
			kept, _ := models[name].(map[string]any)
			if kept == nil {
				kept = map[string]any{}
			} else {
				kept = maps.Clone(kept)
			}
			key := "models." + name
			took := false
			for _, field := range sortedKeys(entry) {
				val := entry[field]
				if !l.trusted {
					if tok, ok := val.(string); ok && field == "tokenizer" && tokenizerPath([]string{tok}) != "" {
						a.noteUntrusted(l, cf, key+".tokenizer", fmt.Sprintf("%q names a tokenizer.json to read", tok))
						continue
					}
					if field == "prices" {
						if known, err := prices.Default().Lookup(name); err == nil && known.Prices != nil {
							a.noteUntrusted(l, cf, key+".prices", "it would reprice "+known.Name+", whose prices harpe has")
							continue
						}
					}
				}
				if err := checkModelField(field, val); err != nil {
					return nil, usageErrorf("%s: %s.%s: %v", l.Where(key+"."+field), key, field, err)
				}
				kept[field] = val
				cf.modelsFrom[key+"."+field] = l
				took = true
			}
			if took {
				models[name] = kept
				cf.modelsFrom[key] = l
				changed = append(changed, name)
			}
		}
		if l.local && len(changed) > 0 && !cf.noted["\x00models"] {
			cf.noted["\x00models"] = true
			fmt.Fprintf(a.io.Err, "harpe: note: %s: models: the working directory's %s changes the presets or prices of %s\n",
				l.Where("models"), config.Name, strings.Join(changed, ", "))
		}
	}
	if models == nil {
		return nil, nil
	}
	return models, nil
}

// checkModelField checks the type of a model's field under models:, so
// that a wrong one is named with its own line rather than by the YAML
// decoder's message about Go types on a line of its own re-encoding.
// Unknown fields and the prices' insides are left to prices.ReadModels.
func checkModelField(field string, val any) error {
	switch field {
	case "context_window", "output_limit", "min_cache_tokens":
		if _, ok := val.(int); !ok {
			return fmt.Errorf("want a whole number, got %s", yamlKind(val))
		}
	case "tokenizer", "source", "cache", "name", "provider":
		if _, ok := val.(string); !ok {
			return fmt.Errorf("want text, got %s", yamlKind(val))
		}
	case "prices":
		if _, ok := val.(map[string]any); !ok {
			return fmt.Errorf("want a mapping of prices (input, cache_read, cache_write_5m, cache_write_1h, output, source, as_of), got %s", yamlKind(val))
		}
	}
	return nil
}

// modelFields are the fields of a model under models:.
const modelFields = "context_window, output_limit, tokenizer, source, as_of, prices, cache, min_cache_tokens"

// yamlKind names what a configuration value is, for messages.
func yamlKind(v any) string {
	switch t := v.(type) {
	case []any:
		return "a list"
	case string:
		return fmt.Sprintf("the text %q", config.Elide(t))
	case nil:
		return "nothing"
	case map[string]any:
		return "a mapping"
	default:
		return fmt.Sprintf("%v", t)
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// noteUntrusted says on stderr, once, that key of the untrusted file l
// is ignored and why.
func (a *app) noteUntrusted(l *configLayer, cf *configFile, key, reason string) {
	if cf.noted[l.Path+"\x00"+key] {
		return
	}
	cf.noted[l.Path+"\x00"+key] = true
	fmt.Fprintf(a.io.Err, "harpe: %s: ignoring %s: %s, and %s; name the file with --config\n", l.Where(key), key, reason, l.why)
}
