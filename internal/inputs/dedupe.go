package inputs

import "path/filepath"

// Dedupe drops the inputs that name a file already in ins (the same
// path spelt twice, a file named and also found in a named directory, a
// link to one), keeping the first, and returns the dropped paths in
// order. Standard input counts once too.
func Dedupe(ins []Input) (kept []Input, dropped []string) {
	seen := make(map[string]bool, len(ins))
	kept = ins[:0:0]
	for _, in := range ins {
		key := in.Path
		if in.Path != Stdin {
			if p, err := filepath.EvalSymlinks(in.Path); err == nil {
				key = p
			}
			if p, err := filepath.Abs(key); err == nil {
				key = p
			}
		}
		if seen[key] {
			dropped = append(dropped, in.Path)
			continue
		}
		seen[key] = true
		kept = append(kept, in)
	}
	return kept, dropped
}
