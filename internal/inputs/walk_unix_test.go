//go:build unix

package inputs

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestExpandSkipsWhatIsNotARegularFile: a walk stats a symlink's target
// and passes over what it could not read to the end (a device, a FIFO), a
// link with no target and a link to a directory, each counted with its
// reason; the one real file is read. Before, the device was read forever,
// the FIFO hung, and the dangling link and the linked directory ended the
// run with an error.
func TestExpandSkipsWhatIsNotARegularFile(t *testing.T) {
	dir := tree(t, "real.jsonl", "sub/inner.jsonl")
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	link("/dev/zero", "zero.jsonl")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo-target"), 0o644); err != nil {
		t.Fatal(err)
	}
	link(filepath.Join(dir, "fifo-target"), "fifo.jsonl")
	link(filepath.Join(dir, "gone"), "dangling.jsonl")
	link(filepath.Join(dir, "sub"), "dir.jsonl")

	ins, skips, err := Expand([]string{dir}, testExts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range ins {
		got = append(got, filepath.Base(in.Path))
	}
	if want := []string{"real.jsonl", "inner.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
	reasons := map[string]string{}
	for _, s := range skips {
		reasons[filepath.Base(s.Path)] = s.Reason
	}
	want := map[string]string{
		"zero.jsonl":     ReasonNotRegular,
		"fifo.jsonl":     ReasonNotRegular,
		"fifo-target":    ReasonNotRegular,
		"dangling.jsonl": ReasonDangling,
		"dir.jsonl":      ReasonLinkedDir,
	}
	for name, r := range want {
		if reasons[name] != r {
			t.Errorf("%s: reason %q, want %q", name, reasons[name], r)
		}
	}
	if len(skips) != len(want) {
		t.Errorf("skips %v, want %d", skips, len(want))
	}
}

// TestExpandSkipsUnreadable: an unreadable subdirectory is passed over and
// counted, the rest of the walk goes on; an unreadable file found by the
// walk is a *SkipError from Open. (Root reads everything: skipped there.)
func TestExpandSkipsUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads unreadable files")
	}
	dir := tree(t, "a.jsonl", "locked/b.jsonl", "c.jsonl")
	if err := os.Chmod(filepath.Join(dir, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "locked"), 0o755) })
	if err := os.Chmod(filepath.Join(dir, "c.jsonl"), 0); err != nil {
		t.Fatal(err)
	}
	ins, skips, err := Expand([]string{dir}, testExts)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 2 || len(skips) != 1 || skips[0].Reason != ReasonUnreadable {
		t.Fatalf("ins %v, skips %v; want a.jsonl, c.jsonl and locked/ unreadable", ins, skips)
	}
	if _, err := Open(ins[1]); err == nil {
		t.Fatal("opened an unreadable file")
	} else if se, ok := err.(*SkipError); !ok || se.Reason != ReasonUnreadable {
		t.Fatalf("Open: %v, want a SkipError %q", err, ReasonUnreadable)
	}
}
