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
// anything, whether r handles a name (see [Deferred]). It is meant for a
// package's init: package github.com/harpe-dev/harpe/pkg/tokenize/hf
// registers its resolver for tokenizer.json files there.
func RegisterResolverNames(handles func(name string) bool, r Resolver) {
	resolversMu.Lock()
	defer resolversMu.Unlock()
	resolvers = append(resolvers, r)
	namers = append(namers, handles)
}

// Deferred reports whether name is one a resolver registered with
// [RegisterResolverNames] handles, without building anything: such a
// name (a tokenizer.json path) can be taken as it is, and the file it
// stands for read only when [New] is asked for it, so that a model preset
// whose tokenizer is missing or unreadable fails only what uses it.
func Deferred(name string) bool {
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
