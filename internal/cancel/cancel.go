// Package cancel holds what the long loops of harpe's packages share to
// stop soon after a context is done without paying for a look at every
// step.
package cancel

// Every is how many steps of a loop pass between two looks at a done
// channel.
const Every = 1 << 12

// Stopped reports whether done (nil: never) is closed.
func Stopped(done <-chan struct{}) bool {
	if done == nil {
		return false
	}
	select {
	case <-done:
		return true
	default:
		return false
	}
}
