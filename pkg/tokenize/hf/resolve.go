package hf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

func init() { tokenize.RegisterResolverNames(IsName, resolver) }

// IsName reports whether name is one [Resolve] handles: "hf:ORG/NAME", or
// a path (it ends in .json or has a path separator).
func IsName(name string) bool {
	return strings.HasPrefix(name, "hf:") || strings.HasSuffix(name, ".json") || strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator)
}

func resolver(name string) (tokenize.Counter, bool, error) {
	if !IsName(name) {
		return nil, false, nil
	}
	t, err := Resolve(name)
	if err != nil {
		return nil, true, err
	}
	return t, true, nil
}

var (
	loadedMu sync.Mutex
	loaded   = map[string]*loading{}
)

type loading struct {
	once sync.Once
	t    *Tokenizer
	err  error
}

// Resolve returns the tokenizer a name stands for: "hf:ORG/NAME" is the
// tokenizer.json of that repository in the Hugging Face cache (see
// [Find]), anything else a path. Each file is read once per process and
// shared: the same name gives the same *Tokenizer.
func Resolve(name string) (*Tokenizer, error) {
	path := name
	if repo, ok := strings.CutPrefix(name, "hf:"); ok {
		var err error
		if path, err = Find(repo); err != nil {
			return nil, err
		}
	}
	loadedMu.Lock()
	l := loaded[path]
	if l == nil {
		l = &loading{}
		loaded[path] = l
	}
	loadedMu.Unlock()
	l.once.Do(func() {
		l.t, l.err = Load(path)
		if l.err == nil && name != path {
			l.t.name = name
		}
	})
	return l.t, l.err
}

// CacheDirs returns the Hugging Face hub caches Find looks in, in order:
// $HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub (with
// $XDG_CACHE_HOME for ~/.cache when it is set), as huggingface_hub does.
func CacheDirs() []string {
	if d := os.Getenv("HF_HUB_CACHE"); d != "" {
		return []string{d}
	}
	if d := os.Getenv("HF_HOME"); d != "" {
		return []string{filepath.Join(d, "hub")}
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return []string{filepath.Join(d, "huggingface", "hub")}
	}
	if h, err := os.UserHomeDir(); err == nil {
		return []string{filepath.Join(h, ".cache", "huggingface", "hub")}
	}
	return nil
}

// NotFoundError is Find's error: the places it looked.
type NotFoundError struct {
	Repo   string
	Looked []string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("hf:%s: no tokenizer.json in the Hugging Face cache (looked in %s); harpe does not download: get it with `huggingface-cli download %s tokenizer.json` (or `hf download %s tokenizer.json`), or give the file's path",
		e.Repo, strings.Join(e.Looked, ", "), e.Repo, e.Repo)
}

// Find returns the path of repository repo's ("ORG/NAME") tokenizer.json
// in the Hugging Face cache: models--ORG--NAME/snapshots/REV/tokenizer.json
// under each of [CacheDirs], REV being the snapshot refs/main names, else
// the snapshot with a tokenizer.json modified last (ties: the greater
// name). It never downloads.
func Find(repo string) (string, error) {
	org, name, ok := strings.Cut(repo, "/")
	if !ok || org == "" || name == "" || strings.ContainsAny(name, `/\`) || strings.Contains(repo, "..") {
		return "", fmt.Errorf("hf:%s: want hf:ORG/NAME, such as hf:Qwen/Qwen3-8B", repo)
	}
	nf := &NotFoundError{Repo: repo}
	for _, dir := range CacheDirs() {
		base := filepath.Join(dir, "models--"+org+"--"+name)
		if ref, err := os.ReadFile(filepath.Join(base, "refs", "main")); err == nil {
			p := filepath.Join(base, "snapshots", strings.TrimSpace(string(ref)), "tokenizer.json")
			if isFile(p) {
				return p, nil
			}
			nf.Looked = append(nf.Looked, p)
		}
		snaps := filepath.Join(base, "snapshots")
		ents, err := os.ReadDir(snaps)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("hf:%s: %v", repo, err)
		}
		best, bestTime := "", int64(0)
		for _, e := range ents {
			p := filepath.Join(snaps, e.Name(), "tokenizer.json")
			st, err := os.Stat(p)
			if err != nil || !st.Mode().IsRegular() {
				continue
			}
			if t := st.ModTime().UnixNano(); best == "" || t > bestTime || t == bestTime && p > best {
				best, bestTime = p, t
			}
		}
		if best != "" {
			return best, nil
		}
		nf.Looked = append(nf.Looked, filepath.Join(snaps, "*", "tokenizer.json"))
	}
	nf.Looked = slices.Compact(nf.Looked)
	return "", nf
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// CachedNames returns "hf:ORG/NAME" for each repository in the Hugging
// Face cache that has a tokenizer.json, sorted.
func CachedNames() []string {
	var out []string
	for _, dir := range CacheDirs() {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			rest, ok := strings.CutPrefix(e.Name(), "models--")
			org, name, ok2 := strings.Cut(rest, "--")
			if !ok || !ok2 {
				continue
			}
			if _, err := Find(org + "/" + name); err == nil {
				out = append(out, "hf:"+org+"/"+name)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
