package archtest

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// snippet is one ```go block of a Markdown page: its text and the line
// of the page it starts on.
type snippet struct {
	file string // the page, relative to the module root
	line int    // the page's line of the block's first line of code
	code string
}

// goSnippets returns the ```go blocks of a Markdown text.
func goSnippets(file, text string) []snippet {
	var out []snippet
	var cur *snippet
	var b strings.Builder
	for i, l := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(l)
		switch {
		case cur == nil && trimmed == "```go":
			cur = &snippet{file: file, line: i + 2}
			b.Reset()
		case cur != nil && trimmed == "```":
			cur.code = b.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return out
}

// snippetFree are the names a snippet may use without declaring them: what
// the prose around it supposes the reader has (a context, a catalog from
// the snippet before, the model's arguments, a listener). A snippet that
// declares one of them shadows it.
const snippetFree = "ctx context.Context, c *catalog.Catalog, rawArgs json.RawMessage, listener net.Listener"

// snippetImports are the packages a snippet may name, by the name it
// uses: the module's public packages and the standard ones the pages use.
var snippetImports = map[string]string{
	"skill": module + "/skill", "catalog": module + "/catalog", "agent": module + "/agent",
	"lint": module + "/lint", "mcpserver": module + "/mcpserver", "skillsext": module + "/mcpserver/skillsext",
	"context": "context", "json": "encoding/json", "net": "net", "fmt": "fmt", "os": "os",
	"slog": "log/slog", "http": "net/http", "time": "time", "errors": "errors", "strings": "strings",
	"embed": "embed", "fs": "io/fs",
}

var pkgRef = regexp.MustCompile(`\b([a-z]+)\.[A-Za-z_]`)

// snippetSource wraps a snippet in a function of its own package: the
// free names are parameters, the code is a block inside (so it may
// redeclare them), and "{ ... }" (the pages' "handle the error") is an
// empty block. A //line directive maps positions back to the page.
func snippetSource(s snippet) string {
	used := map[string]bool{"context": true, "catalog": true, "json": true, "net": true}
	for _, m := range pkgRef.FindAllStringSubmatch(s.code, -1) {
		if _, ok := snippetImports[m[1]]; ok {
			used[m[1]] = true
		}
	}
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("package snippet\n\nimport (\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%q\n", snippetImports[n])
	}
	fmt.Fprintf(&b, ")\n\nfunc _(%s) {\n\t{\n", snippetFree)
	fmt.Fprintf(&b, "//line %s:%d\n", s.file, s.line)
	b.WriteString(strings.ReplaceAll(s.code, "{ ... }", "{}"))
	b.WriteString("\t}\n}\n")
	return b.String()
}

// checkSnippet type-checks one snippet against the packages imp gives and
// returns its errors, "declared and not used" aside (a snippet shows a
// result without using it).
func checkSnippet(s snippet, imp types.Importer) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, s.file, snippetSource(s), parser.SkipObjectResolution)
	if err != nil {
		return []string{err.Error()}
	}
	var errs []string
	conf := types.Config{Importer: imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok && te.Soft && strings.Contains(te.Msg, "declared and not used") {
			return
		}
		errs = append(errs, err.Error())
	}}
	conf.Check("snippet", fset, []*ast.File{f}, nil)
	return errs
}

var exportFiles = struct {
	sync.Once
	files map[string]string
}{}

// publicExportData is exportData for every public package, run once per
// test binary (TestAPI and TestSnippets share it).
func publicExportData(t *testing.T) map[string]string {
	t.Helper()
	root := repoRoot(t)
	exportFiles.Do(func() { exportFiles.files = exportData(t, root, publicPackages(t, root)) })
	if exportFiles.files == nil {
		t.Fatal("no export data (see the first test that asked for it)")
	}
	return exportFiles.files
}

// snippetImporter imports from the export data of the public packages and
// their dependencies (built once per test binary).
func snippetImporter(t *testing.T) types.Importer {
	t.Helper()
	files := publicExportData(t)
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		f, ok := files[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s (add it to snippetImports' packages' dependencies)", path)
		}
		return os.Open(f)
	})
}

// TestSnippets type-checks every ```go block of README.md and docs/*.md
// against the module's public API, so a snippet that names a function,
// field or method that no longer exists (or calls it with the wrong
// arguments) fails here. Each block is its own package; the names in
// snippetFree are given.
func TestSnippets(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds every public package's export data")
	}
	root := repoRoot(t)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	var all []snippet
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		all = append(all, goSnippets(filepath.ToSlash(rel), string(data))...)
	}
	if !slices.ContainsFunc(all, func(s snippet) bool { return s.file == "README.md" }) {
		t.Fatal("README.md has no ```go block; the test would check nothing")
	}
	imp := snippetImporter(t)
	for _, s := range all {
		for _, e := range checkSnippet(s, imp) {
			t.Errorf("%s", e)
		}
	}
}

// TestSnippetsCatchStaleNames checks the checker: a snippet that names a
// function, a field or a method the API lacks fails; the same snippet with
// real names passes.
func TestSnippetsCatchStaleNames(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds every public package's export data")
	}
	imp := snippetImporter(t)
	good := "l, err := c.List(ctx)\nif err != nil { ... }\nfor _, s := range l.Skills {\n\tfmt.Println(s.Name)\n}\n"
	if errs := checkSnippet(snippet{file: "x.md", line: 10, code: good}, imp); len(errs) > 0 {
		t.Fatalf("a valid snippet fails: %v", errs)
	}
	for _, tt := range []struct{ code, want string }{
		{"c, err := catalog.NewCatalog(ctx, nil)\n", "x.md:10"},
		{"l, _ := c.List(ctx)\nfmt.Println(l.Candidates)\n", "x.md:11"},
		{"l, _ := c.List(ctx)\nl.Skills[0].OpenSkillFileNow()\n", "x.md:11"},
		{"c, err := catalog.New(ctx)\n", "x.md:10"},
	} {
		errs := checkSnippet(snippet{file: "x.md", line: 10, code: tt.code}, imp)
		if len(errs) == 0 || !strings.Contains(errs[0], tt.want) {
			t.Errorf("%q: errors %v, want one at %s", tt.code, errs, tt.want)
		}
	}
}
