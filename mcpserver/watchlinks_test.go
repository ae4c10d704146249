package mcpserver

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/catalog"
)

// TestWatchFollowsLinks is the differential test of Watch as a client
// sees it, on a workspace where skills are reached through symlinks: a
// skill folder that is a symlink, a SKILL.md that is a symlink to a file
// outside the roots, a root that is a symlink, and a root that does not
// exist when the server starts. Random changes from a seed (edits of
// every skill file, through its link or where it lives; edits of equal
// length with the modification time put back, as a checkout or cp -p
// leaves them; each link retargeted, atomically by a rename or by remove
// and create; the missing root created, filled and removed; skills and
// bundled files added and removed) are each followed by a wait, bounded
// only to keep a broken test from hanging, until what a client of the
// watching server lists and reads (the tool's name enum, prompts,
// resources with their bytes, skills/list) is what a client of a new
// server on a new catalog of the same tree sees. It catches the watcher
// keeping a retargeted link's old watch, a linked root's or a missing
// root's parent not watched, a symlinked SKILL.md's target not watched,
// and a file's change time ignored (mcpserver and catalog).
func TestWatchFollowsLinks(t *testing.T) {
	t.Parallel() // waits on the watcher's timers more than it computes
	if runtime.GOOS != "linux" {
		t.Skip("the change-time case needs the inode change time (Linux)")
	}
	seeds, steps := 4, 40
	if testing.Short() {
		seeds, steps = 1, 30
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint("seed", seed+1), func(t *testing.T) {
			t.Parallel()
			linksRun(t, seed+1, steps)
		})
	}
}

// linkOptions are the catalog options of a links workspace: four project
// roots, "linked" a symlink, "mirror" a symlink to the root "skills" (as
// .claude/skills often links to .agents/skills: one folder, watched once,
// under two paths) and "other/late" missing at first.
func linkOptions(ws string) *catalog.Options {
	return &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, Directories: []string{"skills", "linked", "other/late", "mirror"}}
}

func linksRun(t *testing.T, seed uint64, steps int) {
	g := newLinkEdits(t, seed)
	c, err := catalog.New(t.Context(), linkOptions(g.ws))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), c, &Options{Debounce: 20 * time.Millisecond, CacheTTL: -1})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil, nil)
	watch(t, s)
	settled(t, s)
	for step := range steps {
		what := g.step()
		want := freshView(t, g.ws)
		deadline := time.Now().Add(20 * time.Second)
		for {
			got := clientView(t, cs)
			if got == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("seed %d step %d (%s): after 20s the server still serves\n%s\nwhere a new server serves\n%s\nsteps:\n%s",
					seed, step, what, got, want, strings.Join(g.log, "\n"))
			}
			_, next := s.watchPasses.next()
			select {
			case <-next:
			case <-time.After(20 * time.Millisecond): // a pass may have ended while the view was read
			}
		}
	}
}

// freshView is clientView of a new server on a new catalog of ws.
func freshView(t *testing.T, ws string) string {
	t.Helper()
	c, err := catalog.New(t.Context(), linkOptions(ws))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), c, &Options{CacheTTL: -1})
	if err != nil {
		t.Fatal(err)
	}
	return clientView(t, connect(t, s, nil, nil))
}

// clientView is what a client sees of the skills, one line a fact: the
// tool's name enum, the prompts, every resource with its metadata and
// text, and the skills/list entries.
func clientView(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	var b strings.Builder
	if tools := listTools(t, cs); len(tools) > 0 {
		fmt.Fprintf(&b, "tool enum %v\n", toolEnum(t, tools[0]))
	}
	for p, err := range cs.Prompts(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "prompt %s: %s\n", p.Name, p.Description)
	}
	for _, r := range allResources(t, cs) {
		res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: r.URI})
		text := "unreadable"
		if err == nil {
			text = fmt.Sprintf("%q", res.Contents[0].Text)
		}
		fmt.Fprintf(&b, "resource %s %s size %d %q: %s\n", r.URI, r.MIMEType, r.Size, r.Description, text)
	}
	for _, e := range allSkills(t, cs) {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "entry %s\n", data)
	}
	return b.String()
}

// linkEdits makes random changes to a links workspace and logs them.
type linkEdits struct {
	t   *testing.T
	ws  string
	rng *rand.Rand
	log []string
	n   int
}

// newLinkEdits writes the workspace: skills/ with plain skills, a skill
// folder symlink (skills/alias to store/alias-a or -b) and a SKILL.md
// symlink (skills/linkmd/SKILL.md to shared/linkmd-a.md or -b.md); the
// root linked, a symlink to store/r1 or store/r2; the root other/late
// missing, in a folder no other root makes the watcher watch.
func newLinkEdits(t *testing.T, seed uint64) *linkEdits {
	g := &linkEdits{t: t, ws: t.TempDir(), rng: rand.New(rand.NewPCG(seed, 22))}
	files := map[string]string{
		"skills/plain-1/SKILL.md":            linkSkill("plain-1", 0),
		"skills/plain-2/SKILL.md":            linkSkill("plain-2", 0),
		"skills/plain-2/references/notes.md": "notes\n",
		"skills/plain-2/tool.py":             "print(0)\n",
		"store/alias-a/SKILL.md":             linkSkill("alias", 1),
		"store/alias-b/SKILL.md":             linkSkill("alias", 2),
		"store/alias-b/references/b.md":      "only in b\n",
		"shared/linkmd-a.md":                 linkSkill("linkmd", 1),
		"shared/linkmd-b.md":                 linkSkill("linkmd", 2),
		"store/r1/rooted-one/SKILL.md":       linkSkill("rooted-one", 0),
		"store/r2/rooted-two/SKILL.md":       linkSkill("rooted-two", 0),
		"store/r2/rooted-three/SKILL.md":     linkSkill("rooted-three", 0),
		"other/README.txt":                   "not a root\n",
	}
	writeTree(t, g.ws, files)
	g.must(os.MkdirAll(g.path("skills/linkmd"), 0o755))
	g.must(os.Symlink("../store/alias-a", g.path("skills/alias")))
	g.must(os.Symlink("../../shared/linkmd-a.md", g.path("skills/linkmd/SKILL.md")))
	g.must(os.Symlink("store/r1", g.path("linked")))
	g.must(os.Symlink("skills", g.path("mirror")))
	return g
}

// linkSkill is a skill file whose description holds a three-digit
// version: two versions are files of one length.
func linkSkill(name string, version int) string {
	return fmt.Sprintf("---\nname: %s\ndescription: The skill %s, version %03d.\n---\nBody of %s at %03d.\n", name, name, version%1000, name, version%1000)
}

func (g *linkEdits) must(err error) {
	g.t.Helper()
	if err != nil {
		g.t.Fatal(err)
	}
}

func (g *linkEdits) path(rel string) string { return filepath.Join(g.ws, filepath.FromSlash(rel)) }

func (g *linkEdits) note(format string, args ...any) string {
	s := fmt.Sprintf(format, args...)
	g.log = append(g.log, s)
	return s
}

// skillFiles returns the regular skill files of the tree (where they
// live, not through a link), relative to the workspace, sorted.
func (g *linkEdits) skillFiles() []string {
	var out []string
	_ = filepath.WalkDir(g.ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && (d.Name() == "SKILL.md" || strings.HasPrefix(p, g.path("shared"))) {
			rel, _ := filepath.Rel(g.ws, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// viaLink returns rel's path through the link that leads to it when there
// is one (skills/alias, linked, skills/linkmd/SKILL.md, mirror), else rel.
func (g *linkEdits) viaLink(rel string) string {
	for _, link := range []string{"skills/alias", "linked", "skills/linkmd/SKILL.md", "mirror"} {
		target, err := os.Readlink(g.path(link))
		if err != nil {
			continue
		}
		real, _ := filepath.Rel(g.ws, filepath.Join(filepath.Dir(g.path(link)), target))
		real = filepath.ToSlash(real)
		if rel == real || strings.HasPrefix(rel, real+"/") {
			return link + strings.TrimPrefix(rel, real)
		}
	}
	return rel
}

var versionRE = regexp.MustCompile(`version \d{3}|at \d{3}`)

// step makes one random change and says what it was.
func (g *linkEdits) step() string {
	g.n++
	switch g.rng.IntN(11) {
	case 0:
		return g.editSkill(false)
	case 1, 2:
		return g.editSkill(true)
	case 3:
		return g.retarget("skills/linkmd/SKILL.md", "../../shared/linkmd-a.md", "../../shared/linkmd-b.md")
	case 4:
		return g.retarget("skills/alias", "../store/alias-a", "../store/alias-b")
	case 5:
		return g.retarget("linked", "store/r1", "store/r2")
	case 6:
		return g.late()
	case 7:
		root := []string{"skills", "linked", "store/r1", "store/r2"}[g.rng.IntN(4)]
		name := fmt.Sprintf("new-%d", g.n)
		writeTree(g.t, g.ws, map[string]string{root + "/" + name + "/SKILL.md": linkSkill(name, g.n)})
		return g.note("new skill %s/%s", root, name)
	case 9:
		// A file beside a SKILL.md that the catalog never reads: served.
		p := []string{"skills/plain-2/tool.py", "store/alias-a/tool.py"}[g.rng.IntN(2)]
		writeTree(g.t, g.ws, map[string]string{p: fmt.Sprintf("print(%d)\n", g.n)})
		return g.note("write %s", p)
	case 10:
		return g.move()
	default:
		dir := []string{"skills/plain-2", "skills/alias", "store/alias-a", "linked/rooted-one", "store/r2/rooted-two"}[g.rng.IntN(5)]
		if g.rng.IntN(2) == 0 {
			_ = os.RemoveAll(g.path(dir + "/references"))
			return g.note("remove %s/references", dir)
		}
		writeTree(g.t, g.ws, map[string]string{dir + "/references/notes.md": fmt.Sprintf("notes %d\n", g.n)})
		return g.note("write %s/references/notes.md", dir)
	}
}

// editSkill rewrites a skill file, through a link to it when one leads
// there and a coin says so; with same, to a new version of the same
// length, with the modification time put back.
func (g *linkEdits) editSkill(same bool) string {
	rel := g.skillFiles()[g.rng.IntN(len(g.skillFiles()))]
	if g.rng.IntN(2) == 0 {
		rel = g.viaLink(rel)
	}
	p := g.path(rel)
	fi, err := os.Stat(p)
	g.must(err)
	data, err := os.ReadFile(p)
	g.must(err)
	v := fmt.Sprintf("%03d", g.n%1000)
	if same {
		data = versionRE.ReplaceAllFunc(data, func(m []byte) []byte { return append(m[:len(m)-3:len(m)-3], v...) })
	} else {
		data = fmt.Appendf(data, "Edited at step %d.\n", g.n)
	}
	g.must(os.WriteFile(p, data, 0o644))
	if same {
		g.must(os.Chtimes(p, fi.ModTime(), fi.ModTime()))
		return g.note("rewrite %s to version %s, same length and mtime", rel, v)
	}
	return g.note("append to %s", rel)
}

// retarget points the symlink rel at the other of two targets: by a
// rename over it (as ln -sfn, editors and deploy tools do) or by removing
// it and making it again.
func (g *linkEdits) retarget(rel, a, b string) string {
	target := a
	if old, _ := os.Readlink(g.path(rel)); old == a {
		target = b
	}
	if g.rng.IntN(2) == 0 {
		tmp := filepath.Join(filepath.Dir(g.path(rel)), ".tmp-link")
		g.must(os.Symlink(target, tmp))
		g.must(os.Rename(tmp, g.path(rel)))
		return g.note("retarget %s to %s by a rename", rel, target)
	}
	g.must(os.Remove(g.path(rel)))
	g.must(os.Symlink(target, g.path(rel)))
	return g.note("retarget %s to %s", rel, target)
}

// late creates the root other/late with a skill, adds one to it, or removes it.
func (g *linkEdits) late() string {
	name := fmt.Sprintf("late-%d", g.n)
	if _, err := os.Stat(g.path("other/late")); err != nil || g.rng.IntN(3) > 0 {
		writeTree(g.t, g.ws, map[string]string{"other/late/" + name + "/SKILL.md": linkSkill(name, g.n)})
		return g.note("new skill other/late/%s", name)
	}
	g.must(os.RemoveAll(g.path("other/late")))
	return g.note("remove the root other/late")
}

// move moves a skill folder out of the roots (to store/moved), or the one
// moved out back in under a new name.
func (g *linkEdits) move() string {
	out := g.path("store/moved")
	if _, err := os.Stat(out); err == nil {
		to := fmt.Sprintf("skills/back-%d", g.n)
		g.must(os.Rename(out, g.path(to)))
		return g.note("move store/moved to %s", to)
	}
	dirs, _ := filepath.Glob(g.path("skills/*/SKILL.md"))
	dir := filepath.Dir(dirs[g.rng.IntN(len(dirs))])
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || filepath.Base(dir) == "linkmd" {
		return g.note("move nothing: %s is a link or holds one", dir)
	}
	g.must(os.Rename(dir, out))
	rel, _ := filepath.Rel(g.ws, dir)
	return g.note("move %s to store/moved", rel)
}
