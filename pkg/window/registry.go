package window

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Setting is one setting of a registered strategy or an edit, as
// [Settings] lists it: what a spec writes after the strategy's name.
type Setting struct {
	// Key is how a spec writes it: chars in windowed:chars=40000; "" for
	// a setting that only [Options] give (summarizing's Distill).
	Key string
	// Kind is what a value is: "int" (a whole number ≥ 0), "bool" (true,
	// yes, 1 or bare; false, no, 0), "list" (names separated by "/") or
	// "string"; "" when Key is "".
	Kind string
	// Default is the value a spec that does not write the setting gets
	// under [DefaultOptions], as a spec would write it; "" for none.
	Default string
	// Option is the field of [Options] that gives the default when it is
	// set ("Windowed.Chars"), "" for none: a front end that sets that
	// field from a flag knows from it which strategies read the flag.
	Option string
	// Doc says what the setting does.
	Doc string
	// Flag is the name of the front end's flag that sets the setting's
	// default for every spec (harpe replay's --window-chars), "" for
	// none; several settings may share one, as windowed's and sliding's
	// chars do. Usage is the flag's help ("" uses Doc). A front end
	// registers such flags from [Settings] and gives their values with
	// [Options.SetDefault]. The registry only carries them.
	Flag, Usage string
	// Edit is set on the settings of an edit (clear, mask): [Settings]
	// lists them, though no edit is registered with [Register], and each
	// flagged one names its Option.
	Edit bool
}

// registered is one strategy of the registry: its settings described
// once, and how a spec's settings become the strategy.
type registered struct {
	name     string
	settings []Setting
	fields   []int // settings[i] is field fields[i] of the settings struct
	build    func(o Options, p specParams) (Strategy, error)
}

var (
	regMu    sync.Mutex
	registry = map[string]*registered{}
	regOrder []string
	// editSettings are the settings of the edits, as [Settings] lists
	// them.
	editSettings = map[string][]Setting{}
)

// Register makes a strategy available by name to [Parse] and [ParseAll]
// (so to harpe replay --strategy when registered before it parses), with
// its settings typed in S, a struct: each field tagged
// `setting:"key"` is set by a spec's key=value (windowed:chars=40000),
// and may carry `doc:"…"` and `option:"Field.Path"` ([Setting]); such a
// field is an int (a whole number ≥ 0), *int (nil until a spec sets it),
// bool, string or []string (a "list"). A field tagged only with
// `option:"…"` is a setting that only [Options] give (it is listed, with
// no key, so a front end knows the strategy reads that option). A
// setting tagged `flag:"name"` (and `usage:"…"`) gets a flag of its own
// in a front end that asks [Settings] (harpe replay does): the flag's
// value is the setting's default, given in the [Options] field its
// option names, else in [Options.Defaults]. from
// gives the settings before the
// spec's, from the options of the replay; build makes the strategy of
// the settings the spec gave. A key the spec writes that S does not
// have is an error naming the valid ones.
//
// Register panics on a name already registered, on an empty one, on one
// holding ':', '+', ',' or '=', on an edit's name, and on an S that is
// not a struct or whose tagged field has another type. It is meant to
// run from an init function or before any replay.
func Register[S any](name string, from func(Options) S, build func(s S, o Options) (Strategy, error)) {
	t := reflect.TypeFor[S]()
	if t.Kind() != reflect.Struct {
		panic("window: the settings of strategy " + strconv.Quote(name) + " are not a struct")
	}
	r := &registered{name: name}
	r.settings, r.fields = describe(name, t, reflect.ValueOf(from(DefaultOptions())))
	r.build = func(o Options, p specParams) (Strategy, error) {
		var keys []string
		for _, s := range r.settings {
			if s.Key != "" {
				keys = append(keys, s.Key)
			}
		}
		if err := p.only(keys...); err != nil {
			return nil, err
		}
		v := reflect.New(t).Elem()
		v.Set(reflect.ValueOf(from(o)))
		if err := r.setDefaults(v, o.Defaults); err != nil {
			return nil, err
		}
		// The whole numbers are read first, then the rest, each in field
		// order: the first error is the one the built-ins always gave.
		for _, ints := range []bool{true, false} {
			for i, s := range r.settings {
				if (s.Kind == "int") != ints {
					continue
				}
				if err := setSetting(v.Field(r.fields[i]), s, p); err != nil {
					return nil, err
				}
			}
		}
		return build(v.Interface().(S), o)
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[name]; dup || name == "" || strings.ContainsAny(name, ":+,=") || isEditName(name) {
		panic("window: bad or duplicate strategy name " + strconv.Quote(name))
	}
	registry[name] = r
	regOrder = append(regOrder, name)
}

// Settings lists the settings of the registered strategy name, in the
// order of their fields (those only [Options] give, with no key,
// included), and whether name is registered. An edit's settings (clear's
// and mask's) are listed too, with Edit set.
func Settings(name string) ([]Setting, bool) {
	regMu.Lock()
	defer regMu.Unlock()
	if s, ok := editSettings[name]; ok {
		return slices.Clone(s), true
	}
	r, ok := registry[name]
	if !ok {
		return nil, false
	}
	return slices.Clone(r.settings), true
}

// describe lists the settings of the settings struct t of the strategy
// or edit name, their defaults from def, with the field each is.
func describe(name string, t reflect.Type, def reflect.Value) ([]Setting, []int) {
	var settings []Setting
	var fields []int
	for i := range t.NumField() {
		f := t.Field(i)
		key, ok := f.Tag.Lookup("setting")
		if !ok {
			if opt := f.Tag.Get("option"); opt != "" {
				if f.Tag.Get("flag") != "" {
					panic(fmt.Sprintf("window: setting %s.%s of %q: a flag needs a setting key", t.Name(), f.Name, name))
				}
				settings = append(settings, Setting{Option: opt, Doc: f.Tag.Get("doc")})
				fields = append(fields, i)
			}
			continue
		}
		kind := settingKind(f.Type)
		if kind == "" || key == "" || !f.IsExported() {
			panic(fmt.Sprintf("window: setting %s.%s of strategy %q: want an exported int, *int, bool, string or []string tagged with a key", t.Name(), f.Name, name))
		}
		settings = append(settings, Setting{Key: key, Kind: kind, Default: formatSetting(def.Field(i)),
			Option: f.Tag.Get("option"), Doc: f.Tag.Get("doc"), Flag: f.Tag.Get("flag"), Usage: f.Tag.Get("usage")})
		fields = append(fields, i)
	}
	return settings, fields
}

// describeEdit lists the settings of the edit name, typed in S (as for
// [Register]; each flagged one names the [Options] field it sets, since
// an edit reads only its own), for [Settings].
func describeEdit[S any](name string, from func(Options) S) {
	settings, _ := describe(name, reflect.TypeFor[S](), reflect.ValueOf(from(DefaultOptions())))
	for i := range settings {
		settings[i].Edit = true
		if settings[i].Flag != "" && settings[i].Option == "" {
			panic("window: flagged setting " + strconv.Quote(settings[i].Key) + " of edit " + strconv.Quote(name) + " names no option")
		}
	}
	regMu.Lock()
	defer regMu.Unlock()
	editSettings[name] = settings
}

// lookup returns the registered strategy name.
func lookup(name string) (*registered, bool) {
	regMu.Lock()
	defer regMu.Unlock()
	r, ok := registry[name]
	return r, ok
}

// settingKind is the [Setting.Kind] of a field of type t, "" when a spec
// cannot set it.
func settingKind(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.Int, t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Int:
		return "int"
	case t.Kind() == reflect.Bool:
		return "bool"
	case t.Kind() == reflect.String:
		return "string"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return "list"
	}
	return ""
}

// formatSetting writes v as a spec would.
func formatSetting(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return ""
		}
		return formatSetting(v.Elem())
	case reflect.Int:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Slice:
		return strings.Join(v.Interface().([]string), "/")
	}
	return v.String()
}

// setSetting sets field v to the value p gives setting s, when p gives
// one.
func setSetting(v reflect.Value, s Setting, p specParams) error {
	raw, ok := p[s.Key]
	if !ok || s.Key == "" {
		return nil
	}
	switch s.Kind {
	case "int":
		n, err := p.Int(s.Key, 0)
		if err != nil {
			return err
		}
		if v.Kind() == reflect.Pointer {
			v.Set(reflect.ValueOf(&n))
		} else {
			v.SetInt(int64(n))
		}
	case "bool":
		b, err := p.Bool(s.Key, false)
		if err != nil {
			return err
		}
		v.SetBool(b)
	case "list":
		var list []string
		for _, t := range strings.Split(raw, "/") {
			if t = strings.TrimSpace(t); t != "" {
				list = append(list, t)
			}
		}
		v.Set(reflect.ValueOf(list))
	default:
		v.SetString(raw)
	}
	return nil
}
