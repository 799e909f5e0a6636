// Package abort keeps the functions to call when a process is stopped
// from outside the work that started them (a second signal, a grace
// period run out): each ends what its work began, a child process say,
// before the process exits without unwinding.
package abort

import (
	"slices"
	"sync"
)

// Hooks are the functions registered and not yet removed. The zero value
// is ready to use; its methods are safe for concurrent use.
type Hooks struct {
	mu    sync.Mutex
	next  int
	hooks []hook
}

type hook struct {
	id int
	fn func()
}

// Add registers fn and returns the function that removes it (calling
// that more than once does nothing more).
func (h *Hooks) Add(fn func()) (remove func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := h.next
	h.next++
	h.hooks = append(h.hooks, hook{id, fn})
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.hooks = slices.DeleteFunc(h.hooks, func(k hook) bool { return k.id == id })
	}
}

// Run calls every registered function, in the order they were added,
// outside the lock (a function may add or remove others).
func (h *Hooks) Run() {
	h.mu.Lock()
	hooks := slices.Clone(h.hooks)
	h.mu.Unlock()
	for _, k := range hooks {
		k.fn()
	}
}
