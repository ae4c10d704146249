package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/skill"
)

// writeTree creates files under dir. A value starting with "-> " makes a
// symlink to the rest of the value; "<dir>" makes an empty folder.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, rel := range keys {
		content := files[rel]
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case content == "<dir>":
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(content, "-> "):
			if err := os.Symlink(strings.TrimPrefix(content, "-> "), p); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
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
	o.Home = e.home
	o.Getenv = func(string) string { return "" }
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
	return c, l
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
