package cmd

import (
	"io/fs"
	"os"
	"strings"
	"testing"
)

// outputTestItems is one line for `harpe count`, which prints "18 FILE": the
// estimate's pieces are { " id " : " a " , " content " : " hello world " }
// = 18, more than 35 chars / 4 = 8.
const outputTestItems = `{"id":"a","content":"hello world"}` + "\n"

// listTestDir names the entries of dir, to show that no temporary file is
// left behind.
func listTestDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func writeTestFile(t *testing.T, path, body string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

func wantFileMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s: mode %04o, want %04o", path, got, want)
	}
}

func wantFileContent(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Errorf("%s: %q, want %q", path, b, want)
	}
}

func wantDirEntries(t *testing.T, dir string, want ...string) {
	t.Helper()
	got := listTestDir(t, dir)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}
