package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// configName is the file harpe looks for when --config is not given.
const configName = "harpe.yaml"

// loadConfigFile returns the configuration file, read once per run:
// --config (or HARPE_CONFIG)
// when given, else harpe.yaml in the current directory, else in the user
// config directory (~/.config/harpe/harpe.yaml on Linux). A missing default
// file is not an error; a named file that is missing or unreadable is.
func (a *app) loadConfigFile() (*viper.Viper, error) {
	if a.config != nil {
		return a.config, nil
	}
	v, err := a.readConfigFile()
	if err != nil {
		return nil, err
	}
	a.config = v
	return v, nil
}

func (a *app) readConfigFile() (*viper.Viper, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	path := a.configFile
	if path == "" {
		if p, ok := a.lookupEnv("HARPE_CONFIG"); ok && p != "" {
			path = p
		}
	}
	if path == "" {
		candidates := []string{configName}
		if dir, err := os.UserConfigDir(); err == nil {
			candidates = append(candidates, filepath.Join(dir, "harpe", configName))
		}
		for _, c := range candidates {
			if st, err := os.Stat(c); err == nil && !st.IsDir() {
				path = c
				break
			}
		}
		if path == "" {
			return v, nil
		}
	}
	v.SetConfigFile(path)
	if err := v.ReadInConfig(); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, usageErrorf("%s: %v", path, pe.Err)
		}
		return nil, usageErrorf("%s: %v", path, err)
	}
	return v, nil
}

// applyConfig fills every flag of c that the command line left unset from,
// in order, HARPE_<COMMAND>_<FLAG>, HARPE_<FLAG> (when not empty), the config file's
// <command>.<flag> and its top-level <flag>. Values set this way count as
// explicit (the flag reads as Changed), so they beat presets such as
// --model just as a flag would.
func (a *app) applyConfig(c *cobra.Command) error {
	v, err := a.loadConfigFile()
	if err != nil {
		return err
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
				if err := c.Flags().Set(f.Name, s); err != nil {
					firstErr = usageErrorf("%s: %v", env, flagError(c, err))
				}
				return
			}
		}
		for _, key := range []string{c.Name() + "." + f.Name, f.Name, c.Name() + "." + flagKey, flagKey} {
			if !v.IsSet(key) {
				continue
			}
			for _, s := range configValues(v.Get(key)) {
				if err := c.Flags().Set(f.Name, s); err != nil {
					firstErr = usageErrorf("%s: %s: %v", v.ConfigFileUsed(), key, flagError(c, err))
					return
				}
			}
			return
		}
	})
	return firstErr
}

// configValues turns a configuration value into the flag arguments that
// would have given it: a list gives one argument per element, a map one
// "key=value" argument per entry in key order.
func configValues(val any) []string {
	switch t := val.(type) {
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			out = append(out, fmt.Sprint(e))
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([]string, 0, len(keys))
		for _, k := range keys {
			out = append(out, k+"="+fmt.Sprint(t[k]))
		}
		return out
	default:
		return []string{fmt.Sprint(t)}
	}
}
