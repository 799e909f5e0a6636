package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/harpe-dev/harpe/internal/config"
	"github.com/harpe-dev/harpe/internal/suggest"
)

// configName is the file harpe looks for when --config is not given.
const configName = "harpe.yaml"

// Flags whose value runs a program or names a file to write are sensitive:
// a configuration file that just happens to sit in the working directory
// (a cloned repository's harpe.yaml) may not set them. The property is an
// annotation on the flag; markSensitive sets it on every flag that is
// listed in sensitiveFlags or whose usage placeholder says it names a file
// or a command (`FILE`, `CMD`, `DIR`, `PATH`), so a new flag written the
// usual way is covered without being listed.
const sensitiveAnnotation = "harpe_sensitive"

// sensitiveFlags says why each known sensitive flag is sensitive.
var sensitiveFlags = map[string]string{
	"distill-cmd": "runs a program",
	"output":      "names a file to write",
	"report":      "names a file to write",
	"plot":        "names a file to write",
}

// sensitivePlaceholders are the usage placeholders that make a flag
// sensitive, with the reason.
var sensitivePlaceholders = map[string]string{
	"FILE": "names a file to write",
	"DIR":  "names a directory to write",
	"PATH": "names a file to write",
	"CMD":  "runs a program",
}

// markSensitive annotates the sensitive flags of c and its subcommands.
func markSensitive(c *cobra.Command) {
	mark := func(f *pflag.Flag) {
		if f.Name == "config" || f.Name == "help" {
			return
		}
		reason, ok := sensitiveFlags[f.Name]
		if !ok {
			placeholder, _ := pflag.UnquoteUsage(f)
			reason, ok = sensitivePlaceholders[placeholder]
		}
		if ok {
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
	*config.File
	path string // "" when there is none
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
		var userFile string
		if dir, err := os.UserConfigDir(); err == nil {
			userFile = filepath.Join(dir, "harpe", configName)
		}
		if fi, err := os.Stat(configName); err == nil && !fi.IsDir() {
			path = configName
			cf.trusted = false
			cf.why = "harpe.yaml in the working directory is not trusted for it"
			if abs, err := filepath.Abs(configName); err == nil && userFile != "" && abs == userFile {
				cf.trusted, cf.why = fileOwnedByUser(configName), "the user does not own "+userFile
			}
		} else if userFile != "" {
			if fi, err := os.Stat(userFile); err == nil && !fi.IsDir() {
				path = userFile
				if !fileOwnedByUser(userFile) {
					cf.trusted, cf.why = false, "the user does not own "+userFile
				}
			}
		}
		if path == "" {
			return cf, nil
		}
	}
	if path == os.DevNull {
		// "--config /dev/null": no configuration at all.
		return cf, nil
	}
	data, err := config.ReadFile(path)
	if err != nil {
		return nil, inputError(err)
	}
	return cf, cf.parse(path, data)
}

// parse reads the YAML data of the file at path into cf, with the line of
// each key.
func (cf *configFile) parse(path string, data []byte) error {
	cf.path = path
	f, err := config.Parse(data)
	if err != nil {
		var ae *config.AliasError
		if errors.As(err, &ae) {
			return usageErrorf("%s:%d: YAML anchors and aliases are not allowed in a configuration file", path, ae.Line)
		}
		return usageErrorf("%s: %v", path, err)
	}
	cf.File = f
	return nil
}

// newConfigFile is an empty, trusted configuration.
func newConfigFile() *configFile {
	f, _ := config.Parse(nil)
	return &configFile{File: f, trusted: true, noted: map[string]bool{}}
}

// ConfigFileUsed is the path of the file read, "" when there is none.
func (cf *configFile) ConfigFileUsed() string { return cf.path }

// where names a key's place in the file: "harpe.yaml:3".
func (cf *configFile) where(key string) string {
	if line, ok := cf.Lines[strings.ToLower(key)]; ok {
		return fmt.Sprintf("%s:%d", cf.path, line)
	}
	return cf.path
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
	if cf.path != "" {
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
					firstErr = usageErrorf("%s: %s", env, elideQuoted(flagError(c, err).Error()))
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
						cf.where(key), key, f.Name, reason, cf.why, f.Name, "HARPE_"+strings.ToUpper(cmdKey+"_"+flagKey))
				}
				return
			}
			for _, s := range config.Values(v.Get(key)) {
				if err := setFlag(c, f, s); err != nil {
					firstErr = usageErrorf("%s: %s: %s", cf.where(key), key, elideQuoted(flagError(c, err).Error()))
					return
				}
			}
			a.noteConfigSource(f.Name, cf.where(key)+": "+key)
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
// people write: yes/no, true/false, on/off, 1/0 (any case, and t/f, y/n).
func setFlag(c *cobra.Command, f *pflag.Flag, s string) error {
	if f.Value.Type() == "bool" {
		b, ok := parseConfigBool(s)
		if !ok {
			return fmt.Errorf("--%s: %q is not yes or no (also true/false, on/off, 1/0)", f.Name, s)
		}
		s = b
	}
	return c.Flags().Set(f.Name, s)
}

// parseConfigBool maps the usual spellings of yes and no to "true" and "false".
func parseConfigBool(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "t", "true", "y", "yes", "on":
		return "true", true
	case "0", "f", "false", "n", "no", "off":
		return "false", true
	}
	return "", false
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
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "-")) }
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
	top := withKey(anyFlag, "")
	for s := range sections {
		top[s] = true
	}
	keys := make([]string, 0, len(cf.Lines))
	for k := range cf.Lines {
		keys = append(keys, k)
	}
	// In file order, for a stable report.
	sort.Slice(keys, func(i, j int) bool {
		if cf.Lines[keys[i]] != cf.Lines[keys[j]] {
			return cf.Lines[keys[i]] < cf.Lines[keys[j]]
		}
		return keys[i] < keys[j]
	})
	for _, key := range keys {
		section, name, nested := strings.Cut(key, ".")
		if freeFormKeys[section] {
			continue
		}
		var known map[string]bool
		if nested {
			known = sections[section]
			if known == nil {
				continue // the section itself is reported
			}
		} else {
			name = section
			if _, isCmd := sections[norm(name)]; isCmd {
				continue
			}
			known = top
		}
		if known[norm(name)] {
			continue
		}
		msg := elideQuoted(fmt.Sprintf("harpe: %s: unknown key %q; ignored", cf.where(key), key))
		if best := closestConfigKey(norm(name), known); best != "" {
			if nested {
				best = section + "." + best
			}
			msg = fmt.Sprintf("harpe: %s: unknown key %q (did you mean %q?); ignored", cf.where(key), key, best)
		}
		fmt.Fprintln(w, msg)
	}
}

// freeFormKeys are top-level keys that are not flags and hold entries of
// their own: models: adds model presets (see harpe models).
var freeFormKeys = map[string]bool{"models": true}

// withKey returns m with k added, copying m first.
func withKey(m map[string]bool, k string) map[string]bool {
	out := make(map[string]bool, len(m)+1)
	for x := range m {
		out[x] = true
	}
	out[k] = true
	return out
}

// closestConfigKey is the known key nearest to name by edit distance, when it
// is near enough to be a typo (at most 2 edits, and fewer than half of
// name's length); ties go to the alphabetically first.
func closestConfigKey(name string, known map[string]bool) string {
	best, bestD := "", 0
	for k := range known {
		d := suggest.Distance(name, k)
		if d > 2 || 2*d >= len(name) {
			continue
		}
		if best == "" || d < bestD || d == bestD && k < best {
			best, bestD = k, d
		}
	}
	return best
}

// maxEchoed is how much of a quoted value a message about a configuration
// value shows: a value may be as long as the file (1 MiB).
const maxEchoed = 64

// elideQuoted shortens every double-quoted string in msg longer than
// maxEchoed bytes to its first maxEchoed bytes (whole characters), "…"
// and its length: "xxxx…" (921600 bytes).
func elideQuoted(msg string) string {
	if len(msg) <= 2*maxEchoed {
		return msg
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			break
		}
		j := i + 1
		for j < len(msg) && msg[j] != '"' {
			if msg[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(msg) {
			break
		}
		b.WriteString(msg[:i+1])
		q := msg[i+1 : j]
		if len(q) > maxEchoed {
			cut := maxEchoed
			for cut > 0 && !utf8.RuneStart(q[cut]) {
				cut--
			}
			// Not inside an escape: back off to before a backslash run.
			if k := strings.LastIndexByte(q[max(0, cut-10):cut], '\\'); k >= 0 {
				cut = max(0, cut-10) + k
			}
			fmt.Fprintf(&b, "%s…\" (%d bytes)", q[:cut], len(q))
		} else {
			b.WriteString(q)
			b.WriteByte('"')
		}
		msg = msg[j+1:]
	}
	b.WriteString(msg)
	return b.String()
}
