package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
)

// TestHostReadDirIsReadDir holds hostReadDir to os: its entries in name
// order are os.ReadDir's (names and types), its entries in the file
// system's order are (*os.File).ReadDir's (on Linux; nil elsewhere), and
// a folder os.ReadDir cannot read is an error, for folders of files,
// folders, symlinks to each, dangling symlinks, many entries (more than
// one getdents64 buffer) and one reused scratch.
func TestHostReadDirIsReadDir(t *testing.T) {
	base := t.TempDir()
	mk := func(p string, f func(string) error) {
		t.Helper()
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, f(p))
	}
	file := func(p string) error { return os.WriteFile(p, []byte("x"), 0o644) }
	dir := func(p string) error { return os.Mkdir(p, 0o755) }
	mk(filepath.Join(base, "a", "SKILL.md"), file)
	mk(filepath.Join(base, "a", "references"), dir)
	mk(filepath.Join(base, "a", "Zed.md"), file)
	mk(filepath.Join(base, "a", "zed.md"), file)
	mk(filepath.Join(base, "a", "tofile"), func(p string) error { return os.Symlink("SKILL.md", p) })
	mk(filepath.Join(base, "a", "todir"), func(p string) error { return os.Symlink("references", p) })
	mk(filepath.Join(base, "a", "dangles"), func(p string) error { return os.Symlink("nothing", p) })
	mk(filepath.Join(base, "empty"), dir)
	for i := range 600 {
		mk(filepath.Join(base, "many", fmt.Sprintf("%s-%03d", strings.Repeat("n", i%40+1), i)), file)
	}
	mk(filepath.Join(base, "link"), func(p string) error { return os.Symlink("a", p) })
	sc := new(direntScratch)
	for _, d := range []string{"a", "empty", "many", "link", "missing", "a/SKILL.md", "a/dangles", "a/todir", ""} {
		p := filepath.Join(base, d)
		for _, scratch := range []*direntScratch{nil, sc} {
			sorted, listed, err := hostReadDir(p, scratch)
			want, wantErr := os.ReadDir(p)
			if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("%s: error %v, os.ReadDir's %v", d, err, wantErr)
			}
			if err != nil {
				continue
			}
			if got, w := entriesOf(sorted), osEntries(want); !slices.Equal(got, w) {
				t.Fatalf("%s: sorted %q, os.ReadDir %q", d, got, w)
			}
			f, err := os.Open(p)
			must(t, err)
			raw, err := f.ReadDir(-1)
			f.Close()
			must(t, err)
			if listed == nil && hostReadDirListsOrder {
				t.Fatalf("%s: no entries in the file system's order", d)
			}
			if got, w := entriesOf(listed), osEntries(raw); listed != nil && !slices.Equal(got, w) {
				t.Fatalf("%s: listed %q, (*os.File).ReadDir %q", d, got, w)
			}
		}
	}
}

func entriesOf(es []catalogx.ListedEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name+" "+e.Type.String())
	}
	return out
}

func osEntries(es []os.DirEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name()+" "+e.Type().String())
	}
	return out
}

// TestHostSearchListed: HostReads.Listed gives each folder the searches
// listed, in the file system's order, once; not a path they did not list
// (a folder no profile searches, a file, a missing path, a path that is
// not clean), and not a listing given before.
func TestHostSearchListed(t *testing.T) {
	base := t.TempDir()
	for _, p := range []string{"a/SKILL.md", "a/references/g.md", "a/Zed.md", "a/zed.md", "b/c/SKILL.md"} {
		must(t, os.MkdirAll(filepath.Join(base, filepath.Dir(p)), 0o755))
		must(t, os.WriteFile(filepath.Join(base, p), []byte("---\nname: x\ndescription: d\n---\n"), 0o644))
	}
	var ps []*profile.Profile
	for _, p := range profile.All() {
		if !p.Native {
			ps = append(ps, p)
		}
	}
	hr, err := hostSearchAll(context.Background(), ps, &Options{Workspace: t.TempDir(), NoUser: true, NoConfigFile: true,
		ExtraPaths: []string{base}})
	must(t, err)
	for _, d := range []string{"", "a", "a/references", "b", "b/c"} {
		p := filepath.Join(base, d)
		got, ok := hr.Listed(p)
		if !ok {
			t.Fatalf("%s: not listed", d)
		}
		f, err := os.Open(p)
		must(t, err)
		want, err := f.ReadDir(-1)
		f.Close()
		must(t, err)
		if g, w := entriesOf(got), osEntries(want); !slices.Equal(g, w) {
			t.Errorf("%s: listed %q, (*os.File).ReadDir %q", d, g, w)
		}
		if _, again := hr.Listed(p); again {
			t.Errorf("%s: listed twice", d)
		}
	}
	for _, p := range []string{filepath.Dir(base), filepath.Join(base, "a/SKILL.md"), filepath.Join(base, "missing"), base + "/a/"} {
		if _, ok := hr.Listed(p); ok {
			t.Errorf("%s: listed, but the searches did not list it", p)
		}
	}
}
