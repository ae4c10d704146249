package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/skill"
)

// writeTree creates files under dir. A value starting with "-> " makes a
// symlink to the rest of the value; "<dir>" makes an empty folder.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	if err := makeTree(dir, files); err != nil {
		t.Fatal(err)
	}
}

// makeTree is writeTree returning the first error.
func makeTree(dir string, files map[string]string) error {
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, rel := range keys {
		content := files[rel]
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		var err error
		switch {
		case content == "<dir>":
			err = os.MkdirAll(p, 0o755)
		case strings.HasPrefix(content, "-> "):
			err = os.Symlink(strings.TrimPrefix(content, "-> "), p)
		default:
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// skillMD is a valid SKILL.md for name.
func skillMD(name string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: The %s skill.\n---\n\n# %s\n\nDo the %s thing.\n", name, name, name, name)
}

// env is a test workspace and home folder.
type testEnv struct {
	ws, home string
}

func newEnv(t testing.TB) testEnv {
	t.Helper()
	base := t.TempDir()
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	e := testEnv{ws: filepath.Join(base, "ws"), home: filepath.Join(base, "home")}
	for _, d := range []string{e.ws, e.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e testEnv) opts(o *Options) *Options {
	if o == nil {
		o = &Options{}
	}
	if o.Workspace == "" {
		o.Workspace = e.ws
	}
	o.home = e.home
	o.getenv = func(string) string { return "" }
	return o
}

func (e testEnv) list(t testing.TB, o *Options) (*Catalog, *Listing) {
	t.Helper()
	c, err := New(context.Background(), e.opts(o))
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkEach(t, e.opts(o), l)
	return c, l
}

// checkEach lists a new catalog of opts with Each and requires what it
// hands out and returns to be what List gave: the same skills in the same
// order (every field, the parsed frontmatter included) and the same
// diagnostics.
func checkEach(t testing.TB, opts *Options, want *Listing) {
	t.Helper()
	checkEachOf(t, opts, false, want)
}

// checkEachIgnored is checkEach for a catalog that reads ignored files
// (catalogx.Hooks.ReadIgnored).
func checkEachIgnored(t testing.TB, opts *Options, want *Listing) {
	t.Helper()
	checkEachOf(t, opts, true, want)
}

func checkEachOf(t testing.TB, opts *Options, ignored bool, want *Listing) {
	t.Helper()
	// Once as it runs, and once in lockstep with the walk, so that a
	// skill handed out before the walk has found what changes it is.
	checkEachStep(t, opts, ignored, want, nil)
	checkEachStep(t, opts, ignored, want, func(string) {})
}

func checkEachStep(t testing.TB, opts *Options, ignored bool, want *Listing, step func(string)) {
	t.Helper()
	c, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	c.ignored = ignored
	// The catalog's own hook, not the package's eachLockstep: tests that
	// list with checkEach run at once (t.Parallel).
	c.lockstep = &lockstepHook{fn: step}
	var got []*Skill
	l, err := c.each(context.Background(), func(l *Listing, s *Skill) error {
		if l.Workspace != want.Workspace || !reflect.DeepEqual(l.Roots, want.Roots) {
			t.Errorf("Each: the listing handed out with %s has workspace %s and roots %v, want %s and %v", s.Name, l.Workspace, l.Roots, want.Workspace, want.Roots)
		}
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if l.Skills != nil || l.candidates != nil {
		t.Errorf("Each returned %d skills and %d candidates, want none", len(l.Skills), len(l.candidates))
	}
	if len(got) != len(want.Skills) {
		t.Fatalf("Each handed out %d skills (%v), List listed %d (%v)", len(got), skillNames(got), len(want.Skills), names(want))
	}
	for i, s := range got {
		w := want.Skills[i]
		if s.Name != w.Name || s.Description != w.Description || s.WhenToUse != w.WhenToUse || s.Location != w.Location ||
			s.BaseDir != w.BaseDir || s.Root != w.Root || s.Scope != w.Scope || s.Folder != w.Folder || s.Flat != w.Flat ||
			s.Bytes != w.Bytes || s.Truncated != w.Truncated || s.Listed != w.Listed || s.boundary != w.boundary ||
			!reflect.DeepEqual(s.Parsed(), w.Parsed()) {
			t.Errorf("Each: skill %d is %+v, List has %+v", i, *s, *w)
		}
	}
	if !reflect.DeepEqual(l.Diagnostics, want.Diagnostics) {
		t.Errorf("Each: diagnostics differ from List's:\n got %v\nwant %v", l.Diagnostics, want.Diagnostics)
	}
}

func skillNames(skills []*Skill) []string {
	var out []string
	for _, s := range skills {
		out = append(out, s.Name)
	}
	return out
}

// names returns the loaded skills' names in order.
func names(l *Listing) []string {
	var out []string
	for _, s := range l.Skills {
		out = append(out, s.Name)
	}
	return out
}

// codes returns "code rel-path" for each diagnostic, paths relative to base.
func codes(l *Listing, base string) []string {
	var out []string
	for _, d := range l.Diagnostics {
		rel, err := filepath.Rel(base, d.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = d.Path
		}
		out = append(out, string(d.Code)+" "+filepath.ToSlash(rel))
	}
	return out
}

func findDiag(l *Listing, code skill.Code) *skill.Diagnostic {
	for i := range l.Diagnostics {
		if l.Diagnostics[i].Code == code {
			return &l.Diagnostics[i]
		}
	}
	return nil
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// listOf is a new catalog's List of opts; it fails t on any error.
func listOf(t *testing.T, opts *Options) *Listing {
	t.Helper()
	c, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return l
}
