package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// TestReloadTouchedIsFull is the differential test of the reload that
// skips the stat of skill files in folders no notification touched
// (catalogx.ListTouched): on a generated tree (internal/benchtree) with
// skill files hard-linked from outside it since before the server
// started, random changes from a seed (appends, rewrites, edits through
// a hard link, mode and time changes, a SKILL.md swapped for a symlink, a
// skill folder for a symlink to another, renames, removals, new skills,
// files beside them) are each followed by the watcher's reload, made even
// when no notification called for one. After each, the listing served
// must be, as JSON byte for byte, a new catalog's cold listing of the
// tree, and the snapshot a new server's.
func TestReloadTouchedIsFull(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the differential test drives inotify")
	}
	// go test ./... runs six trees of 60 skills, 25 edits each (faults
	// planted in the reload were found by step 20, each in the same trees
	// as with 50 edits); -short one of 30 skills, 30 edits (a step lists
	// and builds a snapshot twice, so its cost grows with the tree: 0.5 s
	// of CPU a tree of 60).
	seeds, steps, size := 6, 25, 60
	if testing.Short() {
		seeds, steps, size = 1, 30, 30
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint("seed", seed+1), func(t *testing.T) {
			t.Parallel()
			touchedRun(t, seed+1, steps, size)
		})
	}
}

func touchedRun(t *testing.T, seed uint64, steps, size int) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	if _, err := tree.Generate(ws, &tree.Options{N: size, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	g := &treeEdits{ws: ws, outside: outside, rng: rand.New(rand.NewPCG(seed, 11))}
	g.linkSome(4)
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
	for step := range steps {
		what := g.step()
		w.take(t, filepath.Join(markers, fmt.Sprint(step)))
		w.reload(ctx) // even when nothing called for it: the catalog is told nothing changed
		got := s.snap.Load()
		cold := coldSnapshot(t, opts()) // the listing is its server's: one cold listing, not two
		a, b := listingJSON(t, got.listing), listingJSON(t, cold.listing)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d step %d (%s): the listing is not a cold listing's:\n%s\nwant\n%s\nlog:\n%s", seed, step, what, indented(a), indented(b), strings.Join(g.log, "\n"))
		}
		if kept(got) {
			continue
		}
		if d := snapDiff(got, cold); d != "" {
			t.Fatalf("seed %d step %d (%s): the snapshot is not a new server's: %s\nlog:\n%s", seed, step, what, d, strings.Join(g.log, "\n"))
		}
	}
}

// coldSnapshot is the first snapshot of a new server on a new catalog with
// options opts: its listing is that catalog's cold listing.
func coldSnapshot(t *testing.T, opts *catalog.Options) *snapshot {
	t.Helper()
	c, err := catalog.New(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.snap.Load()
}

// listingJSON is the listing as JSON: every exported field, then its
// skills and every skill file it read (catalogx.Candidates), with every
// exported field of each. It is compact (indented only to be shown, by
// indented): the tests compare it byte for byte at every step.
func listingJSON(t *testing.T, l *catalog.Listing) []byte {
	t.Helper()
	data, err := json.Marshal(struct {
		*catalog.Listing
		Skills     []*catalog.Skill
		Candidates any
	}{l, l.Skills, catx.Candidates(l)})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// indented is data, JSON, indented by one space a level, for a failure
// message.
func indented(data []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, data, "", " ") != nil {
		return string(data)
	}
	return b.String()
}

// treeEdits makes random changes to a generated tree and logs them.
type treeEdits struct {
	ws, outside string
	rng         *rand.Rand
	links       []string // hard links outside the tree, made before the server
	log         []string
	n           int
	// mend is a skill file editStep mends at its next step.
	mend string
}

func (g *treeEdits) note(format string, args ...any) string {
	s := fmt.Sprintf(format, args...)
	g.log = append(g.log, s)
	return s
}

// files returns the tree's files named name (any name when ""), relative
// to the workspace, in a stable order.
func (g *treeEdits) files(name string, dirs bool) []string {
	var out []string
	_ = filepath.WalkDir(g.ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == g.ws || d.IsDir() != dirs && !(dirs && d.Type()&fs.ModeSymlink != 0) {
			return nil
		}
		if name == "" || d.Name() == name {
			rel, _ := filepath.Rel(g.ws, p)
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

func (g *treeEdits) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *treeEdits) path(rel string) string { return filepath.Join(g.ws, rel) }

// linkSome hard-links n skill files from a folder outside the tree, which
// nothing watches: an edit through such a link raises no notification in
// the skill's folder.
func (g *treeEdits) linkSome(n int) {
	if err := os.MkdirAll(g.outside, 0o755); err != nil {
		panic(err)
	}
	skills := g.files("SKILL.md", false)
	for i := range n {
		link := filepath.Join(g.outside, fmt.Sprint("link", i))
		if os.Link(g.path(g.pick(skills)), link) == nil {
			g.links = append(g.links, link)
		}
	}
}

func (g *treeEdits) appendTo(p, line string) {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return
	}
	fmt.Fprintln(f, line)
	f.Close()
}

// step makes one random change and says what it was.
func (g *treeEdits) step() string {
	g.n++
	skills := g.files("SKILL.md", false)
	if len(skills) == 0 {
		return g.newSkill()
	}
	rel := g.pick(skills)
	switch g.rng.IntN(12) {
	case 0, 1:
		g.appendTo(g.path(rel), fmt.Sprint("edited ", g.n))
		return g.note("append to %s", rel)
	case 2:
		name := filepath.Base(filepath.Dir(rel))
		_ = os.WriteFile(g.path(rel), fmt.Appendf(nil, "---\nname: %s\ndescription: Rewritten %d.\n---\nBody.\n", name, g.n), 0o644)
		return g.note("rewrite %s", rel)
	case 3:
		if len(g.links) == 0 {
			return g.newSkill()
		}
		link := g.pick(g.links)
		g.appendTo(link, fmt.Sprint("edited through a hard link ", g.n))
		return g.note("append through the hard link %s", link)
	case 4:
		_ = os.Chmod(g.path(rel), fs.FileMode(0o600+g.rng.IntN(2)*0o044))
		tick := time.Unix(1_700_000_000+int64(g.n), 0)
		_ = os.Chtimes(g.path(rel), tick, tick)
		return g.note("chmod and touch %s", rel)
	case 5:
		other := g.pick(skills)
		_ = os.Remove(g.path(rel))
		target, _ := filepath.Rel(filepath.Dir(g.path(rel)), g.path(other))
		_ = os.Symlink(target, g.path(rel))
		return g.note("replace %s by a symlink to %s", rel, other)
	case 6:
		dir, other := filepath.Dir(rel), filepath.Dir(g.pick(skills))
		_ = os.RemoveAll(g.path(dir))
		target, _ := filepath.Rel(filepath.Dir(g.path(dir)), g.path(other))
		_ = os.Symlink(target, g.path(dir))
		return g.note("replace folder %s by a symlink to %s", dir, other)
	case 7:
		dir := filepath.Dir(rel)
		to := filepath.Join(filepath.Dir(dir), fmt.Sprintf("renamed-%d", g.n))
		_ = os.Rename(g.path(dir), g.path(to))
		return g.note("rename %s to %s", dir, to)
	case 8:
		_ = os.Remove(g.path(rel))
		return g.note("remove %s", rel)
	case 9:
		return g.newSkill()
	case 10:
		p := filepath.Join(filepath.Dir(rel), "references", "notes.md")
		_ = os.MkdirAll(filepath.Dir(g.path(p)), 0o755)
		_ = os.WriteFile(g.path(p), fmt.Appendf(nil, "# Notes %d\n", g.n), 0o644)
		return g.note("write %s", p)
	default:
		_ = os.WriteFile(g.path("skills/app.log"), fmt.Appendf(nil, "line %d\n", g.n), 0o644)
		return g.note("write skills/app.log")
	}
}

func (g *treeEdits) newSkill() string {
	name := fmt.Sprintf("new-skill-%d", g.n)
	rel := filepath.Join("skills", name, "SKILL.md")
	_ = os.MkdirAll(filepath.Dir(g.path(rel)), 0o755)
	_ = os.WriteFile(g.path(rel), fmt.Appendf(nil, "---\nname: %s\ndescription: Made by step %d.\n---\nBody.\n", name, g.n), 0o644)
	return g.note("new skill %s", rel)
}
