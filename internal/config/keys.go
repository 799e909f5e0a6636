package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/suggest"
)

// Name is the file harpe looks for when no file is named.
const Name = "harpe.yaml"

// Location is a configuration file a run reads, found by [Locate].
type Location struct {
	Path string // "" when there is none
	// Trusted is false for a harpe.yaml found in the working directory
	// (and for one in the user config directory that the user does not
	// own): its sensitive keys are to be ignored. Why says why.
	Trusted bool
	Why     string
	// Local is set for the harpe.yaml of the working directory (unless it
	// is the user's own file, run from its directory).
	Local bool
}

// Locate finds the configuration file when none is named: harpe.yaml in
// the current directory, else in the user config directory
// (~/.config/harpe/harpe.yaml on Linux); Path is "" when there is neither.
// It is the first of [LocateAll].
func Locate() Location {
	if all := LocateAll(); len(all) > 0 {
		return all[0]
	}
	return Location{Trusted: true}
}

// LocateAll finds the configuration files read when none is named, the
// one that wins first: harpe.yaml in the current directory, then the one
// in the user config directory (~/.config/harpe/harpe.yaml on Linux).
// Both are read, and a key the first does not set (or may not set, being
// untrusted for it) is taken from the second.
func LocateAll() []Location {
	var userFile string
	if dir, err := os.UserConfigDir(); err == nil {
		userFile = filepath.Join(dir, "harpe", Name)
	}
	var out []Location
	if fi, err := os.Stat(Name); err == nil && !fi.IsDir() {
		loc := Location{Path: Name, Why: Name + " in the working directory is not trusted for it", Local: true}
		if abs, err := filepath.Abs(Name); err == nil && userFile != "" && abs == userFile {
			loc.Trusted, loc.Why, loc.Local = ownedByUser(Name), "the user does not own "+userFile, false
			return []Location{loc}
		}
		out = append(out, loc)
	}
	if userFile != "" {
		if fi, err := os.Stat(userFile); err == nil && !fi.IsDir() {
			if !ownedByUser(userFile) {
				return append(out, Location{Path: userFile, Why: "the user does not own " + userFile})
			}
			return append(out, Location{Path: userFile, Trusted: true})
		}
	}
	return out
}

// sensitiveNames says why each known sensitive flag is sensitive.
var sensitiveNames = map[string]string{
	"distill-cmd": "runs a program",
	"output":      "names a file to write",
	"report":      "names a file to write",
	"plot":        "names a file to write",
	"prices":      "names a file to read",
}

// sensitivePlaceholders are the usage placeholders that make a flag
// sensitive, with the reason.
var sensitivePlaceholders = map[string]string{
	"FILE": "names a file to write",
	"DIR":  "names a directory to write",
	"PATH": "names a file to write",
	"CMD":  "runs a program",
}

// Sensitive is why a flag may not be set by a file that just happens to
// sit in the working directory (a cloned repository's harpe.yaml), or ""
// when it may: its value runs a program or names a file to write. It
// goes by the flag's name, or by the placeholder of its usage text
// (`FILE`, `CMD`, `DIR`, `PATH`), so a new flag written the usual way is
// covered without being listed.
func Sensitive(name, placeholder string) string {
	if reason, ok := sensitiveNames[name]; ok {
		return reason
	}
	return sensitivePlaceholders[placeholder]
}

// ParseBool maps the usual spellings of yes and no (yes/no, true/false,
// on/off, 1/0 in any case, and t/f, y/n) to "true" and "false".
func ParseBool(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "t", "true", "y", "yes", "on":
		return "true", true
	case "0", "f", "false", "n", "no", "off":
		return "false", true
	}
	return "", false
}

// Schema is what keys a file may hold, written with dashes: at the top
// level the keys of Top (any command's flags, and the command names,
// which hold sections); in a command's section, the keys of
// Sections[command]. Keys of FreeForm hold entries of their own and are
// not checked.
type Schema struct {
	Sections map[string]map[string]bool
	Top      map[string]bool
	FreeForm map[string]bool
}

// Unknown is a key of a file that no command reads.
type Unknown struct {
	Key     string // as Lines has it: lowercased, dotted
	Line    int
	Closest string // the known key nearest to Key, "" when none is near
}

// Message is u, a key of the file at path, as harpe reports it:
// `harpe.yaml:3: unknown key "budgt" (did you mean "budget"?); ignored`
// (a key as long as the file is best passed through [Elide]).
func (u Unknown) Message(path string) string {
	hint := ""
	if u.Closest != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", u.Closest)
	}
	return fmt.Sprintf("%s:%d: unknown key %q%s; ignored", path, u.Line, u.Key, hint)
}

// Unknown lists the keys of f that s does not know, in file order, with
// the closest known key when one is near. Dashes and underscores are the
// same. Of a section that is no command's, the section is reported, not
// its keys.
func (f *File) Unknown(s Schema) []Unknown {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "-")) }
	keys := make([]string, 0, len(f.Lines))
	for k := range f.Lines {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if f.Lines[keys[i]] != f.Lines[keys[j]] {
			return f.Lines[keys[i]] < f.Lines[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var out []Unknown
	for _, key := range keys {
		section, name, nested := strings.Cut(key, ".")
		if s.FreeForm[section] {
			continue
		}
		known := s.Top
		if nested {
			if known = s.Sections[section]; known == nil {
				continue
			}
		} else {
			name = section
			if _, isCmd := s.Sections[norm(name)]; isCmd {
				continue
			}
		}
		if known[norm(name)] {
			continue
		}
		u := Unknown{Key: key, Line: f.Lines[key], Closest: closest(norm(name), known)}
		if nested && u.Closest != "" {
			u.Closest = section + "." + u.Closest
		}
		out = append(out, u)
	}
	return out
}

// closest is the known key nearest to name by edit distance, when it is
// near enough to be a typo (at most 2 edits, and fewer than half of
// name's length); ties go to the alphabetically first.
func closest(name string, known map[string]bool) string {
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

// Elide shortens every double-quoted string in msg longer than 64 bytes
// to its first 64 bytes (whole characters), "…" and its length:
// "xxxx…" (921600 bytes).
func Elide(msg string) string {
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
