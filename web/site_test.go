package web_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// TestSite builds the site without a browser and checks what it holds:
// the files the page needs, at most 16 MB in all (the limit), and
// no reference in the page, stylesheet or script to anything but its own
// files.
func TestSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm: not in -short mode")
	}
	site := t.TempDir()
	if out, err := exec.Command("bash", "../scripts/build-web.sh", site).CombinedOutput(); err != nil {
		t.Fatalf("build-web.sh: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(site)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var total int64
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, e.Name())
		total += info.Size()
	}
	want := []string{"agent.jsonl", "app.js", "cl100k_base.bin", "harpe.wasm", "index.html", "o200k_base.bin", "sample-transcript.jsonl", "style.css", "wasm_exec.js"}
	if !slices.Equal(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
	if total > 16<<20 {
		t.Errorf("site is %d bytes, over 16 MiB", total)
	}
	t.Logf("site: %d files, %d bytes", len(names), total)

	for _, f := range []string{"index.html", "style.css", "app.js"} {
		b, err := os.ReadFile(filepath.Join(site, f))
		if err != nil {
			t.Fatal(err)
		}
		if m := external.Find(b); m != nil {
			t.Errorf("%s refers to something outside the site: %q", f, m)
		}
	}
}

// external matches a URL with a scheme or a protocol-relative one in
// src=, href=, url() or fetch(), and any @import: what could make the page
// load something from elsewhere.
var external = regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?\s*(https?:|//)|url\(\s*["']?\s*(https?:|//)|fetch\(\s*["'\x60]\s*(https?:|//)|@import`)

func TestExternalPattern(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"CDN script", `<script src="https://cdn.example/x.js">`, true},
		{"protocol-relative font", `<link rel="stylesheet" href="//fonts.example/css">`, true},
		{"CSS url", `body { background: url( 'http://img.example/a.png') }`, true},
		{"fetch elsewhere", "fetch(`https://api.example/v1`)", true},
		{"CSS import", `@import "other.css";`, true},
		{"own script", `<script src="app.js"></script>`, false},
		{"own fetch", `fetch("agent.jsonl")`, false},
		{"data icon", `<link rel="icon" href="data:,">`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := external.MatchString(tt.text); got != tt.want {
				t.Errorf("match %v, want %v", got, tt.want)
			}
		})
	}
}
