// Package settingflag holds no code: its test registers a strategy with
// a flagged setting from outside pkg/window, as a library user would,
// and runs harpe replay with it, in a test binary of its own (so the
// strategy shows in no other test's help).
package settingflag
