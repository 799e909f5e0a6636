package tokenize

import "sync"

// A Resolver gives the counter for a name [New] does not know itself
// (a file path, "hf:ORG/NAME"): ok is false when the name is not one it
// handles, and err says why a name it handles gives no counter.
type Resolver func(name string) (c Counter, ok bool, err error)

var (
	resolversMu sync.Mutex
	resolvers   []Resolver
)

func resolve(name string) (Counter, bool, error) {
	resolversMu.Lock()
	rs := resolvers
	resolversMu.Unlock()
	for _, r := range rs {
		if c, ok, err := r(name); ok {
			return c, true, err
		}
	}
	return nil, false, nil
}

// namers are the name tests of resolvers registered with
// [RegisterResolverNames].
var namers []func(string) bool

// RegisterResolverNames adds r to the resolvers [New] asks, in order,
// about names it does not know, with handles reporting, without building
// anything, whether r handles a name (package
// github.com/harpe-dev/harpe/pkg/tokenize/hf registers one for
// tokenizer.json files and hf:ORG/NAME when imported). A name
// handles accepts is taken by [NewCatalog] as it is: the file it stands
// for is read only when [New] is asked for it, so a preset whose tokenizer
// is missing or unreadable fails only what uses that preset.
func RegisterResolverNames(handles func(name string) bool, r Resolver) {
	resolversMu.Lock()
	defer resolversMu.Unlock()
	resolvers = append(resolvers, r)
	namers = append(namers, handles)
}

// deferred reports whether name is one a resolver handles and builds only
// when asked (see RegisterResolverNames).
func deferred(name string) bool {
	resolversMu.Lock()
	ns := namers
	resolversMu.Unlock()
	for _, handles := range ns {
		if handles(name) {
			return true
		}
	}
	return false
}
