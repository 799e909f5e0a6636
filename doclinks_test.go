package main

// TestDocLinks resolves every doc link (a name in square brackets: Name,
// pkg.Name, pkg.Type.Method, *pkg.Type) in the comments of the module's Go
// files, tests included, so a comment cannot go on naming an identifier
// that moved or went.
//
// A link is what go doc takes for one, with two widenings so that stale
// names are caught rather than printed as plain text: a lower-case
// name.Name whose first part is neither an import, a package of the
// module or the standard library, nor an identifier of the package is a
// link to a package that is gone; and a Name or Type.Name that the package
// lacks is a link when it reads as a Go identifier (three characters or
// more, upper and lower case: not [DONE] or a regular expression's [Up]).

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

const modulePath = "github.com/harpe-dev/harpe"

// linkPackage is what a doc link can name in one package: its top-level
// identifiers and, per type, its methods and fields.
type linkPackage struct {
	name    string
	files   []*ast.File
	names   map[string]bool
	members map[string]map[string]bool // type → method and field names
	embeds  map[string][]string        // type → embedded type expressions
}

// linkIndex finds packages by import path: the module's from the tree,
// the standard library's and dependencies' through go/build.
type linkIndex struct {
	fset   *token.FileSet
	root   string
	byPath map[string]*linkPackage // import path → package (nil: not found)
	byName map[string][]string     // module package name → import paths
}

func newLinkIndex(t *testing.T, root string) *linkIndex {
	t.Helper()
	ix := &linkIndex{fset: token.NewFileSet(), root: root, byPath: map[string]*linkPackage{}, byName: map[string][]string{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata" || n == "node_modules" || n == "vendor") {
			return filepath.SkipDir
		}
		pkg, err := ix.parseDir(p, false)
		if err != nil {
			return err
		}
		if pkg == nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		ip := path.Join(modulePath, filepath.ToSlash(rel))
		ix.byPath[ip] = pkg
		ix.byName[pkg.name] = append(ix.byName[pkg.name], ip)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// parseDir reads the package in dir (its files without _test.go; with
// tests, those too, for the comments checked), or returns nil when there
// is none.
func (ix *linkIndex) parseDir(dir string, tests bool) (*linkPackage, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	pkg := &linkPackage{names: map[string]bool{}, members: map[string]map[string]bool{}, embeds: map[string][]string{}}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || (!tests && strings.HasSuffix(n, "_test.go")) {
			continue
		}
		f, err := parser.ParseFile(ix.fset, filepath.Join(dir, n), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(f.Name.Name, "_test") || f.Name.Name == "documentation" {
			continue
		}
		if pkg.name == "" {
			pkg.name = f.Name.Name
		} else if pkg.name != f.Name.Name {
			continue // a file of another package (a build-tagged main)
		}
		pkg.files = append(pkg.files, f)
		pkg.add(f)
	}
	if pkg.name == "" {
		return nil, nil
	}
	return pkg, nil
}

func (pkg *linkPackage) member(typ, name string) {
	if pkg.members[typ] == nil {
		pkg.members[typ] = map[string]bool{}
	}
	pkg.members[typ][name] = true
}

// add records the declarations of f.
func (pkg *linkPackage) add(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				pkg.names[d.Name.Name] = true
				continue
			}
			typ := d.Recv.List[0].Type
			for {
				switch x := typ.(type) {
				case *ast.StarExpr:
					typ = x.X
					continue
				case *ast.IndexExpr:
					typ = x.X
					continue
				case *ast.IndexListExpr:
					typ = x.X
					continue
				}
				break
			}
			if id, ok := typ.(*ast.Ident); ok {
				pkg.member(id.Name, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						pkg.names[n.Name] = true
					}
				case *ast.TypeSpec:
					pkg.names[s.Name.Name] = true
					var fields *ast.FieldList
					switch x := s.Type.(type) {
					case *ast.StructType:
						fields = x.Fields
					case *ast.InterfaceType:
						fields = x.Methods
					}
					if fields == nil {
						continue
					}
					for _, fl := range fields.List {
						for _, n := range fl.Names {
							pkg.member(s.Name.Name, n.Name)
						}
						if len(fl.Names) == 0 {
							e := exprText(fl.Type)
							pkg.member(s.Name.Name, e[strings.LastIndex(e, ".")+1:])
							pkg.embeds[s.Name.Name] = append(pkg.embeds[s.Name.Name], exprText(fl.Type))
						}
					}
				}
			}
		}
	}
}

// exprText writes an embedded field's type as source.
func exprText(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		return exprText(x.X)
	case *ast.SelectorExpr:
		return exprText(x.X) + "." + x.Sel.Name
	case *ast.IndexExpr:
		return exprText(x.X)
	}
	return "?"
}

// pkgAt returns the package of import path ip, reading it on first use.
func (ix *linkIndex) pkgAt(ip string) *linkPackage {
	if p, ok := ix.byPath[ip]; ok {
		return p
	}
	var pkg *linkPackage
	if bp, err := build.Import(ip, ix.root, build.FindOnly); err == nil {
		pkg, _ = ix.parseDir(bp.Dir, false)
	}
	ix.byPath[ip] = pkg
	return pkg
}

// has reports whether pkg declares name, or typ.name as a method or
// field (promoted ones included).
func (ix *linkIndex) has(ip string, pkg *linkPackage, typ, name string) bool {
	if typ == "" {
		return pkg.names[name]
	}
	return ix.hasMember(ip, pkg, typ, name, 0)
}

func (ix *linkIndex) hasMember(ip string, pkg *linkPackage, typ, name string, depth int) bool {
	if pkg == nil || depth > 5 {
		return false
	}
	if pkg.members[typ][name] {
		return true
	}
	for _, e := range pkg.embeds[typ] {
		if q, sel, ok := strings.Cut(e, "."); ok {
			eip := ix.importOf(pkg, q)
			if ix.hasMember(eip, ix.pkgAt(eip), sel, name, depth+1) {
				return true
			}
		} else if ix.hasMember(ip, pkg, e, name, depth+1) {
			return true
		}
	}
	return false
}

// importOf returns the import path pkg's files know as name.
func (ix *linkIndex) importOf(pkg *linkPackage, name string) string {
	for _, f := range pkg.files {
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if importName(im, p) == name {
				return p
			}
		}
	}
	return ""
}

func importName(im *ast.ImportSpec, p string) string {
	if im.Name != nil {
		return im.Name.Name
	}
	base := path.Base(p)
	if i := strings.Index(base, "."); i > 0 && strings.HasPrefix(p, "gopkg.in/") {
		base = base[:i]
	}
	if strings.HasPrefix(base, "v") && len(base) > 1 && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(p))
	}
	return base
}

// lookupPackage resolves the package name a doc link in a file of pkg
// uses, as go doc does: an import of the file (or of the package), a
// package of this module with that last element, a standard library
// package. A lower-case name that is none of these and not an identifier
// of pkg is taken as a link to a package that is gone ("?name").
func (ix *linkIndex) lookupPackage(pkg *linkPackage, f *ast.File) func(string) (string, bool) {
	return func(name string) (string, bool) {
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if importName(im, p) == name {
				return p, true
			}
		}
		if p := ix.importOf(pkg, name); p != "" {
			return p, true
		}
		if name == pkg.name {
			return "", true
		}
		if ps := ix.byName[name]; len(ps) == 1 {
			return ps[0], true
		}
		if bp, err := build.Import(name, ix.root, build.FindOnly); err == nil && bp.Goroot {
			return name, true
		}
		if pkg.names[name] || pkg.members[name] != nil || !isLowerIdent(name) {
			return "", false
		}
		return "?" + name, true
	}
}

// isLowerIdent reports whether s is an identifier starting with a
// lower-case letter, as a package name.
func isLowerIdent(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != "" && unicode.IsLower(rune(s[0]))
}

// docLinks returns the doc links of text.
func docLinks(p *comment.Parser, text string) []*comment.DocLink {
	var links []*comment.DocLink
	var walk func([]comment.Text)
	walk = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case *comment.DocLink:
				links = append(links, t)
			case *comment.Link:
				walk(t.Text)
			case *comment.Italic, comment.Plain:
			}
		}
	}
	for _, b := range p.Parse(text).Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			walk(b.Text)
		case *comment.Heading:
			walk(b.Text)
		case *comment.List:
			for _, it := range b.Items {
				for _, c := range it.Content {
					if para, ok := c.(*comment.Paragraph); ok {
						walk(para.Text)
					}
				}
			}
		}
	}
	return links
}

// staleLinks returns, for every comment of the module's Go files (tests
// included), the doc links that name nothing, as "file:line: [link]".
func staleLinks(t *testing.T, root string) (stale []string, links int) {
	ix := newLinkIndex(t, root)
	var paths []string
	for ip := range ix.byPath {
		if strings.HasPrefix(ip, modulePath) {
			paths = append(paths, ip)
		}
	}
	slices.Sort(paths)
	for _, ip := range paths {
		dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(ip, modulePath), "/")))
		withTests, err := ix.parseDir(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		// Test files see the package's names and their own.
		for _, f := range withTests.files {
			for _, cg := range f.Comments {
				cp := &comment.Parser{
					LookupPackage: ix.lookupPackage(withTests, f),
					LookupSym: func(recv, name string) bool {
						return withTests.names[name] || withTests.members[recv][name] || goLike(name) && (recv == "" || goLike(recv))
					},
				}
				for _, l := range docLinks(cp, cg.Text()) {
					links++
					target := l.ImportPath
					var tp *linkPackage
					if target == "" {
						tp = withTests
					} else if strings.HasPrefix(target, "?") {
						tp = nil
					} else {
						tp = ix.pkgAt(target)
					}
					if l.Name == "" && strings.HasPrefix(target, "?") {
						links-- // [word]: not a package, prose
						continue
					}
					if tp != nil && (l.Name == "" || ix.has(target, tp, l.Recv, l.Name)) {
						continue
					}
					stale = append(stale, fmt.Sprintf("%s: %s", ix.linkPos(root, cg, l), linkText(l)))
				}
			}
		}
	}
	return stale, links
}

// linkPos returns "file:line" of the comment line of cg that holds l
// (the first whose text ends as l does), else of cg's first line.
func (ix *linkIndex) linkPos(root string, cg *ast.CommentGroup, l *comment.DocLink) string {
	tail := "." + l.Name + "]"
	if l.Recv != "" {
		tail = "." + l.Recv + tail
	} else if l.ImportPath == "" {
		tail = l.Name + "]"
	}
	at := cg.Pos()
	for _, c := range cg.List {
		if strings.Contains(c.Text, tail) {
			at = c.Pos()
			break
		}
	}
	pos := ix.fset.Position(at)
	rel, _ := filepath.Rel(root, pos.Filename)
	return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), pos.Line)
}

// goLike reports whether a name not found reads as a Go identifier: three
// characters or more, with upper- and lower-case letters.
func goLike(name string) bool {
	return len(name) >= 3 && strings.ContainsFunc(name, unicode.IsUpper) && strings.ContainsFunc(name, unicode.IsLower)
}

func linkText(l *comment.DocLink) string {
	var b strings.Builder
	b.WriteString("[")
	if l.ImportPath != "" {
		b.WriteString(path.Base(strings.TrimPrefix(l.ImportPath, "?")) + ".")
	}
	if l.Recv != "" {
		b.WriteString(l.Recv + ".")
	}
	b.WriteString(l.Name + "]")
	return b.String()
}

func TestDocLinks(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	stale, links := staleLinks(t, root)
	for _, s := range stale {
		t.Errorf("%s: names nothing (moved or gone?)", s)
	}
	if links == 0 {
		t.Fatal("no doc link found: the walk is broken")
	}
	t.Logf("%d doc links, %d stale", links, len(stale))
}

// TestStaleLinks: on a small module, the links that name something pass
// (a type, its method, field and embedded field, a function, the
// standard library, an import's package) and the others are each named
// with file and line; prose in brackets is not a link.
func TestStaleLinks(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"pkg/a/a.go": "package a\n\n// T is a type.\ntype T struct {\n\tF int\n\tE\n}\n\n// E is embedded.\ntype E struct{ G int }\n\n// M is a method.\nfunc (T) M() {}\n",
		"pkg/b/b.go": "package b\n\nimport (\n\t\"io\"\n\n\t\"" + modulePath + "/pkg/a\"\n)\n\n" +
			"// Use names [a.T], [a.T.M], [a.T.F], [a.T.E], [a.T.G], [*a.T], [io.Reader],\n" +
			"// [Use] and [a], with prose [DONE], [Up], [i] and x[n.y].\n" +
			"func Use(io.Reader, a.T) {}\n\n" +
			"// Stale: [a.Gone],\n// [a.T.Nope], [gone.Thing], [io.Readerx]\n// and [Missing].\nvar Stale = 0\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stale, links := staleLinks(t, root)
	want := []string{
		"pkg/b/b.go:13: [a.Gone]",
		"pkg/b/b.go:14: [a.T.Nope]",
		"pkg/b/b.go:14: [gone.Thing]",
		"pkg/b/b.go:14: [io.Readerx]",
		"pkg/b/b.go:15: [Missing]",
	}
	if !slices.Equal(stale, want) {
		t.Errorf("stale links\n got %q\nwant %q", stale, want)
	}
	if links != 14 {
		t.Errorf("%d links, want 14 (9 that resolve, 5 stale)", links)
	}
}

// TestDocPageNames resolves the Go names README.md and docs/*.md write in
// backquotes as pkg.Name or pkg.Type.Member, pkg being a package of this
// module (window, transcript, …): a page cannot go on naming an
// identifier that moved or went.
func TestDocPageNames(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ix := newLinkIndex(t, root)
	re := regexp.MustCompile("`\\*?([a-z][a-z0-9]*)\\.([A-Z][A-Za-z0-9_]*)(?:\\.([A-Za-z][A-Za-z0-9_]*))?(?:\\(\\)|\\[[^\\]]*\\])?`")
	names := 0
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				ips := ix.byName[m[1]]
				if len(ips) != 1 {
					continue // not a package of this module (or not one alone)
				}
				names++
				pkg := ix.byPath[ips[0]]
				recv, name := "", m[2]
				if m[3] != "" {
					recv, name = m[2], m[3]
				}
				if !ix.has(ips[0], pkg, recv, name) {
					t.Errorf("%s:%d: %s names nothing (moved or gone?)", page, i+1, strings.Trim(m[0], "`"))
				}
			}
		}
	}
	if names == 0 {
		t.Fatal("no Go name found in the pages: the scan is broken")
	}
	t.Logf("%d Go names in the pages", names)
}
