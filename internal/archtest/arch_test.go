package archtest

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/skillet-go/skillet"

// repoRoot returns the module root (the folder holding go.mod).
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", dir, err)
	}
	return dir
}

// arrows reads the "may import" table of docs/ARCHITECTURE.md: package
// path (relative to the module) -> the project packages it may import.
func arrows(t *testing.T, root string) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tick := regexp.MustCompile("`([^`]+)`")
	table := map[string][]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "<!-- arrows:") {
			in = true
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if len(table) > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			t.Fatalf("docs/ARCHITECTURE.md: arrows row %q has %d cells, want 3", line, len(cells))
		}
		m := tick.FindStringSubmatch(cells[0])
		if m == nil {
			continue // header or separator
		}
		var allowed []string
		for _, a := range tick.FindAllStringSubmatch(cells[2], -1) {
			allowed = append(allowed, a[1])
		}
		if strings.Contains(cells[2], "every package above") {
			allowed = append(allowed, "*")
		}
		table[m[1]] = allowed
	}
	if len(table) == 0 {
		t.Fatal("docs/ARCHITECTURE.md: no arrows table found after the <!-- arrows: --> marker")
	}
	return table
}

// imports returns, per package folder (relative to the module root), the
// imports of its non-test Go files.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		if _, ok := out[rel]; !ok {
			out[rel] = nil // a package that imports nothing still needs a row
		}
		for _, spec := range f.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			if !slices.Contains(out[rel], path) {
				out[rel] = append(out[rel], path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportArrows fails on a package folder without a row in
// docs/ARCHITECTURE.md's table, on a row that names no package folder, on a
// project import that the table does not allow, on a package the table
// allows that is not imported (a stale row), on anything but cmd/skillet importing
// internal/cli, and on anything but internal/yamlx importing the YAML
// library.
func TestImportArrows(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	table := arrows(t, root)
	for _, want := range []string{"skill", "catalog", "agent", "lint", "mcpserver", "internal/cli", "internal/yamlx"} {
		if _, ok := table[want]; !ok {
			t.Errorf("docs/ARCHITECTURE.md: the arrows table has no row for %s", want)
		}
	}
	found := imports(t, root)
	for pkg, allowed := range table {
		imps, ok := found[pkg]
		if !ok {
			t.Errorf("docs/ARCHITECTURE.md: the arrows table has a row for %s, which is no package folder (no non-test Go file)", pkg)
			continue
		}
		for _, dep := range allowed {
			if !strings.Contains(dep, "*") && !slices.Contains(imps, module+"/"+dep) {
				t.Errorf("docs/ARCHITECTURE.md: the row of %s allows %s, which it does not import: drop it from the row (the table says what each package imports)", pkg, dep)
			}
		}
	}
	for pkg, imps := range found {
		allowed, listed := table[pkg]
		if !listed {
			t.Errorf("docs/ARCHITECTURE.md: the arrows table has no row for %s (every package has one, with what it may import)", pkg)
		}
		for _, imp := range imps {
			if strings.HasPrefix(imp, "go.yaml.in/yaml") || strings.HasPrefix(imp, "gopkg.in/yaml") {
				if pkg != "internal/yamlx" {
					t.Errorf("%s imports %s: only internal/yamlx may import the YAML library", pkg, imp)
				}
				continue
			}
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			if dep == "internal/cli" && pkg != "cmd/skillet" {
				t.Errorf("%s imports internal/cli: only cmd/skillet may", pkg)
			}
			if slices.Contains(allowed, "*") {
				continue
			}
			if !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s, which docs/ARCHITECTURE.md does not allow (allowed: %s)", pkg, dep, strings.Join(allowed, ", "))
			}
		}
	}
}

var (
	// citation is a reference to a page of docs/, with an optional anchor.
	// (A docs/ path inside a URL or another repository's path, preceded
	// by "/" or a word character, is not one.)
	citation = regexp.MustCompile(`(?:^|[^/\w.-])docs/([A-Za-z0-9_-]+\.md)(#[a-z0-9-]+)?`)
	// outside are citations of files that are not in the repository: the
	// team's working paper, its source documents and reference notes.
	outside = regexp.MustCompile(`DESIGN\.md|\bseed 00[0-9]\b|reference/[a-z0-9-]+\.md|\bpeers\.md\b|agent-skills-spec\.md|\bD(1[01]|[1-9])\.[0-9]\b`)
)

// mayCite tells whether line holds a substring that every match of
// citation holds ("docs/") and one that every match of outside holds
// (".md", "seed 00", or a "D" before a digit), so that the lines without
// either, nearly all, skip the regular expressions.
func mayCite(line string) (docs, out bool) {
	out = strings.Contains(line, ".md") || strings.Contains(line, "seed 00")
	for i := 0; !out && i+1 < len(line); i++ {
		out = line[i] == 'D' && '0' <= line[i+1] && line[i+1] <= '9'
	}
	return strings.Contains(line, "docs/"), out
}

// anchors returns the GitHub-style anchors of a Markdown file's headings.
func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	set := map[string]bool{}
	fence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		set[slug(h)] = true
	}
	return set
}

// slug is the anchor GitHub gives a heading: lower case, punctuation other
// than "-" and "_" removed, spaces turned into "-".
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestCitations fails on a citation, in Go code, help texts, scripts or
// testscript files, of a docs/ page or anchor that does not exist, or of a
// file outside the repository.
func TestCitations(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	pages := map[string]map[string]bool{}
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && strings.HasPrefix(n, ".") && n != ".ci" {
				return filepath.SkipDir
			}
			if d.Name() == "fuzz" || d.Name() == "archtest" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(p)
		if ext != ".go" && ext != ".txtar" && ext != ".sh" && ext != ".md" && d.Name() != "run" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if strings.Contains(rel, "testdata"+string(filepath.Separator)) && ext != ".txtar" {
			return nil // fixtures: skill files written by others, recordings
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(data), "\n") {
			docs, out := mayCite(line)
			if !docs && !out {
				continue
			}
			if m := outside.FindString(line); out && m != "" {
				t.Errorf("%s:%d: cites %q, which is not in the repository; cite a docs/ page or the specification's URL", rel, i+1, m)
			}
			for _, m := range citation.FindAllStringSubmatch(line, -1) { // none unless docs
				page := m[1]
				set, ok := pages[page]
				if !ok {
					set = anchors(t, filepath.Join(root, "docs", page))
					pages[page] = set
				}
				if set == nil {
					t.Errorf("%s:%d: cites docs/%s, which does not exist", rel, i+1, page)
					continue
				}
				if m[2] != "" && !set[m[2][1:]] {
					t.Errorf("%s:%d: cites docs/%s%s, but the page has no such heading", rel, i+1, page, m[2])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: is the walk broken?", checked)
	}
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Catalog block", "catalog-block"},
		{"The three stages", "the-three-stages"},
		{"name-mismatch", "name-mismatch"},
		{"skillet list --json", "skillet-list---json"},
		{"Serving a team (Kubernetes)", "serving-a-team-kubernetes"},
	} {
		if got := slug(c.in); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// mdLink is a Markdown link's target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// htmlID is an anchor made by an HTML id attribute, as <a id="x"></a>.
var htmlID = regexp.MustCompile(`\bid="([^"]+)"`)

// TestLinks fails on a relative link in README.md or a page under docs/
// (outside fences and code spans) to a file that does not exist, or to a
// Markdown file's anchor that is neither a heading's nor an HTML id's.
func TestLinks(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	pages := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			pages = append(pages, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	code := regexp.MustCompile("`[^`]*`")
	known := map[string]map[string]bool{}
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		fence := false
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "```") {
				fence = !fence
			}
			if fence {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(code.ReplaceAllString(line, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				file, anchor, _ := strings.Cut(target, "#")
				dest := page
				if file != "" {
					dest = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
				}
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s:%d: links to %s, which does not exist", rel, i+1, target)
					continue
				}
				if anchor == "" || !strings.HasSuffix(dest, ".md") {
					continue
				}
				if known[dest] == nil {
					known[dest] = pageAnchors(t, dest)
				}
				if !known[dest][anchor] {
					t.Errorf("%s:%d: links to %s, but the page has no such heading or id", rel, i+1, target)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d links checked: is the scan broken?", checked)
	}
}

// pageAnchors is anchors with the page's HTML ids added.
func pageAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	set := anchors(t, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range htmlID.FindAllStringSubmatch(string(data), -1) {
		set[m[1]] = true
	}
	return set
}
