package mcpserver

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// TestReloadEditedIsFull is the differential test of the patched reload
// (catalogx.ListEdited, buildEdited): on a generated tree with no hard
// link or symlink (so that the catalog may patch), random changes from a
// seed, mostly writes that patch (appends, description-only rewrites,
// reference files, files outside every skill) mixed with those that must
// not (a name changed to another skill's and back, so that a clash comes
// and goes and precedence moves; a skill hidden; a broken file then
// mended; new skills in new folders; removals), are each followed by the
// watcher's reload. After each, the listing served must be, as JSON byte
// for byte, a new catalog's cold listing, and the snapshot a new
// server's (patchDiff). Enough of the reloads must have been patches.
func TestReloadEditedIsFull(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the differential test drives inotify")
	}
	// -short: two trees of 30 skills, 25 steps each (a step lists and
	// builds a snapshot twice, so its cost grows with the tree).
	seeds, steps, size := 4, 60, 60
	if testing.Short() {
		seeds, steps, size = 2, 25, 30
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint("seed", seed+1), func(t *testing.T) {
			t.Parallel()
			editedRun(t, seed+1, steps, size)
		})
	}
}

func editedRun(t *testing.T, seed uint64, steps, size int) {
	ws := filepath.Join(t.TempDir(), "ws")
	if _, err := tree.Generate(ws, &tree.Options{N: size, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	g := &treeEdits{ws: ws, rng: rand.New(rand.NewPCG(seed, 17))}
	ctx := t.Context()
	opts := func() *catalog.Options { return &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true} }
	c, err := catalog.New(ctx, opts())
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(ctx, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, markers := startWatcher(t, s)
	compared := 0
	for step := range steps {
		what := g.editStep()
		w.take(t, filepath.Join(markers, fmt.Sprint(step)))
		w.reload(ctx)
		got := s.snap.Load()
		cold := coldSnapshot(t, opts()) // the listing is its server's: one cold listing, not two
		if a, b := listingJSON(t, got.listing), listingJSON(t, cold.listing); !bytes.Equal(a, b) {
			t.Fatalf("seed %d step %d (%s): the listing is not a cold listing's:\n%s\nwant\n%s\nlog:\n%s", seed, step, what, indented(a), indented(b), strings.Join(g.log, "\n"))
		}
		if kept(got) {
			continue
		}
		if d := patchDiff(got, cold); d != "" {
			t.Fatalf("seed %d step %d (%s): the snapshot is not a new server's: %s\nlog:\n%s", seed, step, what, d, strings.Join(g.log, "\n"))
		}
		compared++
	}
	if compared < steps/2 || s.patches < steps/5 {
		t.Errorf("seed %d: %d of %d reloads patched, %d snapshots compared; want at least %d and %d", seed, s.patches, steps, compared, steps/5, steps/2)
	}
}

// patchDiff is snapDiff, and what a patch changes beside: the skills by
// name, the files by URI with their digests, the extension's entries in
// URI order, the tool listing, the prompts, the bytes and the server's
// diagnostics.
func patchDiff(a, b *snapshot) string {
	if d := snapDiff(a, b); d != "" {
		return d
	}
	keys := func(sn *snapshot) (names, files, tool, prompts, diags []string) {
		for name, sv := range sn.byName {
			names = append(names, name+"="+sv.fp)
			if sv.prompt != nil {
				prompts = append(prompts, name)
			}
		}
		for uri, f := range sn.files {
			files = append(files, uri+"="+f.digest)
		}
		for _, cs := range sn.toolListing.Skills {
			tool = append(tool, cs.Name+"@"+cs.Location)
		}
		for _, d := range sn.diags {
			diags = append(diags, d.String())
		}
		slices.Sort(names)
		slices.Sort(files)
		slices.Sort(prompts)
		return
	}
	an, af, at, ap, ad := keys(a)
	bn, bf, bt, bp, bd := keys(b)
	// The extension's entries, in URI order, as "URI %+v" of each would
	// show them; compared field by field, formatted only to be shown.
	sameEntries := slices.EqualFunc(a.entries, b.entries, func(x, y *served) bool { return x.uri == y.uri && sameEntry(x.entry, y.entry) })
	entries := func(sn *snapshot) (out []string) {
		if !sameEntries {
			for _, sv := range sn.entries {
				out = append(out, fmt.Sprintf("%s %+v", sv.uri, *sv.entry))
			}
		}
		return out
	}
	ae, be := entries(a), entries(b)
	for _, c := range []struct {
		what string
		x, y []string
	}{{"skills by name", an, bn}, {"files by URI", af, bf}, {"extension entries", ae, be}, {"tool listing", at, bt}, {"prompts", ap, bp}, {"diagnostics", ad, bd}} {
		if !slices.Equal(c.x, c.y) || c.what == "extension entries" && !sameEntries {
			return fmt.Sprintf("%s\n  %q\nwant\n  %q", c.what, c.x, c.y)
		}
	}
	if a.bytes != b.bytes {
		return fmt.Sprintf("%d bytes, want %d", a.bytes, b.bytes)
	}
	return ""
}

// sameEntry reports whether two extension entries hold the same values:
// what "%+v" prints of each (a nil and an empty slice alike), field by
// field; by "%+v" itself when the types have fields it does not know.
func sameEntry(x, y *skillsext.SkillEntry) bool {
	if reflect.TypeFor[skillsext.SkillEntry]().NumField() != 4 || reflect.TypeFor[skillsext.Manifest]().NumField() != 2 ||
		reflect.TypeFor[skillsext.SkillResource]().NumField() != 3 {
		return fmt.Sprintf("%+v", *x) == fmt.Sprintf("%+v", *y)
	}
	return x.URI == y.URI && bytes.Equal(x.Frontmatter, y.Frontmatter) && slices.Equal(x.Resources.Files, y.Resources.Files) &&
		x.Resources.Dynamic == y.Resources.Dynamic && bytes.Equal(sealed(x), sealed(y))
}

// sealed is the bytes e goes on the wire as: the encoding Seal kept, when
// it was sealed, so an entry whose fields were patched but whose kept
// encoding was not differs from a new server's.
func sealed(e *skillsext.SkillEntry) []byte {
	b, err := e.MarshalJSON()
	if err != nil {
		return []byte("error: " + err.Error())
	}
	return b
}

// editStep makes one random change, mostly a write a reload patches, and
// says what it was.
func (g *treeEdits) editStep() string {
	g.n++
	if rel := g.mend; rel != "" {
		// A skill kept from an earlier state is not compared with a new
		// server's (it has none): mended at once, for the next steps.
		g.mend = ""
		g.rewrite(rel, filepath.Base(filepath.Dir(rel)), "Mended.", "")
		return g.note("mend %s", rel)
	}
	skills := g.files("SKILL.md", false)
	if len(skills) == 0 {
		return g.newSkill()
	}
	rel := g.pick(skills)
	dir := filepath.Dir(rel)
	name := filepath.Base(dir)
	switch g.rng.IntN(14) {
	case 0, 1, 2:
		g.appendTo(g.path(rel), fmt.Sprint("edited ", g.n))
		return g.note("append to %s", rel)
	case 3, 4:
		g.rewrite(rel, name, fmt.Sprintf("Described again by step %d.", g.n), "")
		return g.note("rewrite the description of %s", rel)
	case 5:
		other := filepath.Base(filepath.Dir(g.pick(skills)))
		g.rewrite(rel, other, "Named after another skill.", "")
		g.mend = rel
		return g.note("rename the skill of %s to %s", rel, other)
	case 6:
		g.rewrite(rel, name, "Hidden from the model.", "disable-model-invocation: true\n")
		return g.note("hide %s", rel)
	case 7:
		_ = os.WriteFile(g.path(rel), []byte("---\nname: [unclosed\n"), 0o644)
		g.mend = rel
		return g.note("break %s", rel)
	case 8, 9:
		p := filepath.Join(dir, "references", "notes.md")
		_ = os.MkdirAll(filepath.Dir(g.path(p)), 0o755)
		_ = os.WriteFile(g.path(p), fmt.Appendf(nil, "# Notes %d\n", g.n), 0o644)
		return g.note("write %s", p)
	case 10:
		// A grouping folder's file: the walk reads the folder, not it.
		_ = os.MkdirAll(g.path("skills/docs"), 0o755)
		_ = os.WriteFile(g.path("skills/docs/notes.md"), fmt.Appendf(nil, "# Notes %d\n", g.n), 0o644)
		return g.note("write skills/docs/notes.md, outside every skill")
	case 11:
		return g.newSkill()
	case 12:
		_ = os.RemoveAll(g.path(dir))
		return g.note("remove %s", dir)
	default:
		g.rewrite(rel, name, "Mended.", "")
		return g.note("mend %s with its folder's name", rel)
	}
}

// rewrite writes the skill file rel in place (one inode) with name,
// description and extra frontmatter lines.
func (g *treeEdits) rewrite(rel, name, description, extra string) {
	_ = os.WriteFile(g.path(rel), fmt.Appendf(nil, "---\nname: %s\ndescription: %s\n%s---\nBody of step %d.\n", name, description, extra, g.n), 0o644)
}
