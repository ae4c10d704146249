package mcpserver

import (
	"errors"
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

	"github.com/fsnotify/fsnotify"

	"github.com/skillet-go/skillet/catalog"
)

// TestIncrementalReloadIsFull applies random edit sequences, generated
// from a seed, to a workspace of three roots (two project roots and a
// user root, so that copies shadow and clash), with the walk's limits and
// maxSkills small enough to be reached: skill files and folders created,
// edited, removed and renamed, bundled files (also in dot-folders and
// node_modules), files replaced by a rename, symlinks to skill folders and
// files, files beside the skills. After each step the watcher takes the
// file notifications it got and reloads as Watch does; the snapshot it
// serves must be the one a full reload from the same last snapshot makes
// (every file stat'ed again), and, while no last good version is kept,
// the one a new server makes.
func TestIncrementalReloadIsFull(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the differential test drives inotify")
	}
	seeds, steps := 12, 60
	if testing.Short() {
		seeds, steps = 3, 40
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint("seed", seed+1), func(t *testing.T) {
			t.Parallel()
			incrementalRun(t, seed+1, steps)
		})
	}
}

func incrementalOptions(ws string) *catalog.Options {
	return &catalog.Options{Workspace: ws, NoConfigFile: true, Directories: []string{"a", "b"},
		UserRoots: []string{filepath.Join(ws, "user")}, MaxSkills: 7, MaxDepth: 3, MaxFolders: 6}
}

func incrementalRun(t *testing.T, seed uint64, steps int) {
	ws := t.TempDir()
	for _, r := range []string{"a", "b", "user"} {
		if err := os.MkdirAll(filepath.Join(ws, r), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := &edits{ws: ws, rng: rand.New(rand.NewPCG(seed, 7))}
	for range 6 {
		g.writeSkill()
	}
	ctx := t.Context()
	c, err := catalog.New(ctx, incrementalOptions(ws))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(ctx, c, &Options{MaxFiles: 20})
	if err != nil {
		t.Fatal(err)
	}
	w, markers := startWatcher(t, s)
	for step := range steps {
		what := g.step()
		if w.take(t, filepath.Join(markers, fmt.Sprint(step))) {
			w.reload(ctx)
		}
		got := s.snap.Load()
		full, err := s.build(ctx, got, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := snapDiff(got, full); d != "" {
			t.Fatalf("seed %d step %d (%s): the incremental snapshot is not a full reload's: %s\nlog:\n%s", seed, step, what, d, strings.Join(g.log, "\n"))
		}
		if kept(got) {
			continue
		}
		c2, err := catalog.New(ctx, incrementalOptions(ws))
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := New(ctx, c2, &Options{MaxFiles: 20})
		if err != nil {
			t.Fatal(err)
		}
		if d := snapDiff(got, fresh.snap.Load()); d != "" {
			t.Fatalf("seed %d step %d (%s): the incremental snapshot is not a new server's: %s\nlog:\n%s", seed, step, what, d, strings.Join(g.log, "\n"))
		}
	}
}

// take hands the watcher the file notifications that came before marker
// (a file it writes in a folder watched apart from the rest: inotify
// keeps one queue in order) and reports whether one called for a reload.
func (w *watcher) take(t testing.TB, marker string) (reload bool) {
	t.Helper()
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case ev := <-w.fw.Events:
			if ev.Name == marker {
				return reload
			}
			if filepath.Dir(ev.Name) == filepath.Dir(marker) {
				continue
			}
			reload = w.event(ev) || reload
		case err := <-w.fw.Errors:
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				t.Fatal(err)
			}
			w.full, reload = "overflow", true
		case <-time.After(20 * time.Second):
			t.Fatal("the marker's notification did not come within 20s")
		}
	}
}

func kept(sn *snapshot) bool {
	return slices.ContainsFunc(sn.skills, func(sv *served) bool { return sv.kept })
}

// snapDiff says how two snapshots differ in what clients see, "" when
// they do not.
func snapDiff(a, b *snapshot) string {
	names := func(sn *snapshot) (out []string) {
		for _, sv := range sn.skills {
			out = append(out, fmt.Sprintf("%s@%s listed=%t kept=%t excluded=%q", sv.name, sv.cat.Location, sv.cat.Listed, sv.kept, sv.excluded))
		}
		return out
	}
	if x, y := names(a), names(b); !slices.Equal(x, y) {
		return fmt.Sprintf("skills\n  %v\nwant\n  %v", x, y)
	}
	for i, sv := range a.skills {
		if o := b.skills[i]; sv.fp != o.fp {
			return fmt.Sprintf("skill %s (%s) serves other files or metadata: %v, want %v", sv.name, sv.cat.Location, fileList(sv), fileList(o))
		}
	}
	if a.instructions != b.instructions {
		return fmt.Sprintf("instructions\n%q\nwant\n%q", a.instructions, b.instructions)
	}
	if !sameTool(a.tool, b.tool) {
		return "the tool differs"
	}
	if len(a.files) != len(b.files) {
		return fmt.Sprintf("%d files, want %d", len(a.files), len(b.files))
	}
	return ""
}

func fileList(sv *served) (out []string) {
	for _, f := range sv.files {
		out = append(out, f.rel+"="+f.digest[7:15])
	}
	return out
}

// edits makes random changes to a workspace and logs them.
type edits struct {
	ws  string
	rng *rand.Rand
	log []string
}

var (
	editNames = []string{"alpha", "beta", "gamma", "delta", "eps", "zeta"}
	editDirs  = []string{"a", "b", "user", "a/grp", "b/grp/deep", "a/grp/deep/deeper", "a/grp2", "a/grp3", "a/grp4", "a/grp5", "a/grp6"}
)

func (g *edits) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *edits) path(rel string) string { return filepath.Join(g.ws, filepath.FromSlash(rel)) }

func (g *edits) note(format string, args ...any) string {
	s := fmt.Sprintf(format, args...)
	g.log = append(g.log, s)
	return s
}

// existing returns the workspace's paths (relative) that match keep.
func (g *edits) existing(keep func(rel string, d fs.DirEntry) bool) []string {
	var out []string
	_ = filepath.WalkDir(g.ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == g.ws {
			return nil
		}
		rel, _ := filepath.Rel(g.ws, p)
		if keep(filepath.ToSlash(rel), d) {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func (g *edits) skillFiles() []string {
	return g.existing(func(rel string, d fs.DirEntry) bool { return d.Name() == "SKILL.md" })
}

// dirsOf returns the folders of the skill files skills.
func dirsOf(skills []string) []string {
	var out []string
	for _, f := range skills {
		out = append(out, filepath.ToSlash(filepath.Dir(f)))
	}
	return out
}

func (g *edits) content() string {
	name := g.pick(editNames)
	desc := fmt.Sprintf("Does %s things %d.", g.pick(editNames), g.rng.IntN(100))
	switch g.rng.IntN(10) {
	case 0:
		return "no frontmatter at all\n"
	case 1:
		return "---\nname: " + name + "\ndescription: [unclosed\n---\nBody.\n"
	case 2:
		desc = ""
	}
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\nBody %d.\n", name, desc, g.rng.IntN(1000))
}

func (g *edits) write(rel, data string) {
	p := g.path(rel)
	_ = os.MkdirAll(filepath.Dir(p), 0o755)
	_ = os.WriteFile(p, []byte(data), 0o644)
}

func (g *edits) writeSkill() string {
	rel := g.pick(editDirs) + "/" + g.pick(editNames) + "/SKILL.md"
	g.write(rel, g.content())
	return g.note("write %s", rel)
}

// step makes one random change and says what it was.
func (g *edits) step() string {
	skills := g.skillFiles()
	dirs := dirsOf(skills) // one walk of the workspace, not two
	if len(skills) == 0 {
		return g.writeSkill()
	}
	switch g.rng.IntN(14) {
	case 0, 1:
		return g.writeSkill()
	case 2, 3:
		rel := g.pick(skills)
		g.write(rel, g.content())
		return g.note("edit %s", rel)
	case 4:
		rel := g.pick(skills)
		tmp := rel + ".tmp"
		g.write(tmp, g.content())
		_ = os.Rename(g.path(tmp), g.path(rel))
		return g.note("replace %s by a rename", rel)
	case 5:
		rel := g.pick(skills)
		_ = os.Remove(g.path(rel))
		return g.note("remove %s", rel)
	case 6:
		rel := g.pick(append(dirs, "a/grp", "b/grp"))
		_ = os.RemoveAll(g.path(rel))
		return g.note("remove folder %s", rel)
	case 7:
		from := g.pick(dirs)
		to := g.pick(editDirs) + "/" + g.pick(editNames)
		_ = os.MkdirAll(filepath.Dir(g.path(to)), 0o755)
		_ = os.Rename(g.path(from), g.path(to))
		return g.note("rename %s to %s", from, to)
	case 8, 9:
		rel := g.pick(dirs) + "/" + g.pick([]string{"references/guide.md", "scripts/run.sh", "notes.txt", ".hidden/x.md", "node_modules/m.js", "assets/deep/img.bin"})
		g.write(rel, fmt.Sprint("content ", g.rng.IntN(1000)))
		return g.note("write %s", rel)
	case 10:
		files := g.existing(func(rel string, d fs.DirEntry) bool { return !d.IsDir() && d.Name() != "SKILL.md" })
		if len(files) == 0 {
			return g.writeSkill()
		}
		rel := g.pick(files)
		_ = os.Remove(g.path(rel))
		return g.note("remove %s", rel)
	case 11:
		from, to := g.pick(dirs), g.pick([]string{"a", "b", "user", "a/grp"})+"/link-"+g.pick(editNames)
		_ = os.MkdirAll(filepath.Dir(g.path(to)), 0o755)
		target, _ := filepath.Rel(filepath.Dir(g.path(to)), g.path(from))
		_ = os.Symlink(target, g.path(to))
		return g.note("link %s -> %s", to, from)
	case 12:
		from, in := g.pick(skills), g.pick(dirs)
		_ = os.MkdirAll(g.path(in+"/references"), 0o755)
		_ = os.Symlink(g.path(from), g.path(in+"/references/linked.md"))
		return g.note("link %s/references/linked.md -> %s", in, from)
	default:
		rel := g.pick([]string{"a/app.log", "a/grp/app.log", "b/notes.md", "a/grp/deep/deeper/far/x.log"})
		g.write(rel, fmt.Sprint("line ", g.rng.IntN(1000)))
		return g.note("write %s", rel)
	}
}

// TestWatchWhereTheWalkGoes checks that the watches follow the catalog's
// walk: none past its folder limit, none in folders never served (a
// skill's node_modules and dot-folders), one for each folder that can
// hold a served file; and that a write to a log file beside the skills
// calls for no reload while one to a Markdown file there does.
func TestWatchWhereTheWalkGoes(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("counts inotify watches")
	}
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"a/aone/SKILL.md":                skillMD("aone", "The first skill.", "One.\n"),
		"a/aone/references/guide.md":     "# Guide\n",
		"a/aone/node_modules/m/index.js": "x\n",
		"a/aone/.git/objects/x":          "x\n",
		"a/aone/assets/empty/.keep":      "",
		"a/broken/SKILL.md":              "no frontmatter\n",
		"a/broken/scripts/run.sh":        "echo\n",
		"a/app.log":                      "line\n",
	})
	for i := range 40 {
		if err := os.MkdirAll(filepath.Join(ws, "a", fmt.Sprintf("g%02d", i), "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c, err := catalog.New(t.Context(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true,
		Directories: []string{"a"}, MaxFolders: 10})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := newWatcher(s)
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer fw.Close()
	w.fw = fw
	w.sync(nil)
	var rels []string
	for p := range w.watched {
		rel, _ := filepath.Rel(ws, p)
		rels = append(rels, filepath.ToSlash(rel))
	}
	slices.Sort(rels)
	walked := 0
	for _, r := range rels {
		if strings.HasPrefix(r, "a/g") {
			walked++
		}
		if strings.Contains(r, "node_modules") || strings.Contains(r, ".git") {
			t.Errorf("watches %s, a folder never served", r)
		}
	}
	// The root counts as one of the walk's 10 folders.
	if walked > 10 {
		t.Errorf("watches %d grouping folders, past the walk's limit of 10: %v", walked, rels)
	}
	for _, want := range []string{"a", "a/aone", "a/aone/references", "a/aone/assets", "a/aone/assets/empty", "a/broken", "a/broken/scripts"} {
		if !slices.Contains(rels, want) {
			t.Errorf("does not watch %s; watches %v", want, rels)
		}
	}
	if w.event(fsnotify.Event{Name: filepath.Join(ws, "a", "app.log"), Op: fsnotify.Write}) {
		t.Error("a write to a log file beside the skills calls for a reload")
	}
	for _, name := range []string{"notes.md", ".skilletignore", "aone/references/guide.md"} {
		if !w.event(fsnotify.Event{Name: filepath.Join(ws, "a", filepath.FromSlash(name)), Op: fsnotify.Write}) {
			t.Errorf("a write to %s calls for no reload", name)
		}
	}
}

// startWatcher gives s a watcher whose fsnotify watcher the test reads
// itself (w.take), watching the folders the first sync chose and a folder
// of markers, which the test writes to know a batch of events has arrived;
// the first reload is done. The fsnotify watcher closes with the test.
func startWatcher(t testing.TB, s *Server) (*watcher, string) {
	t.Helper()
	w := newWatcher(s)
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fw.Close() })
	w.fw = fw
	markers := t.TempDir()
	if err := fw.Add(markers); err != nil {
		t.Fatal(err)
	}
	w.sync(nil)
	w.full = "the first pass"
	w.reload(t.Context())
	return w, markers
}
