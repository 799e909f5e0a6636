//go:build !unix

package config

// ownedByUser is true where harpe cannot tell file owners apart: the user
// config directory is the user's own.
func ownedByUser(string) bool { return true }
