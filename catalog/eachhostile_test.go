//go:build linux && (amd64 || arm64)

package catalog

import (
	"context"
	"errors"
	"fmt"
	"github.com/skillet-go/skillet/internal/ignore"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileNames are folder and skill names that sort in every byte-wise
// way: upper case before lower, '-' and '.' before digits, '_' between
// the cases, non-ASCII last, names that differ only in case or in
// Unicode normalisation (é composed and decomposed), and entries the
// walk skips by name.
var hostileNames = []string{
	"a", "A", "a-b", "a.b", "a_b", "a1", "1a", "b", "B", "caf\u00e9", "cafe\u0301",
	"x", "x-y", "xy", "zed", "Zed", "ζ", "_u", ".d", "node_modules", "skill.md",
}

// hostileTree writes a random tree of seed under e.ws (and e.home): four
// project roots, a user root, an extra root (flat files) and an extra root
// inside a project root; skills at every depth, nested in one another and
// in grouping folders; names that are not their folders'; skill.md in
// another case; hidden, broken, large and frontmatter-less files; SKILL.md
// and folder symlinks (to other skills, out of the boundary, dangling, in
// loops); hard links; a FIFO and a folder named SKILL.md; loose files in
// folders without skills; and .skilletignore files of random patterns
// (negations, anchors, folders, malformed).
func hostileTree(t *testing.T, e testEnv, seed int64, links bool) []string {
	t.Helper()
	r := rand.New(rand.NewSource(seed))
	pick := func(s []string) string { return s[r.Intn(len(s))] }
	roots := []string{".agents/skills", ".claude/skills", "skills", ".github/skills", "extra", "skills/grp"}
	files := map[string]string{}
	var dirs, skillFiles []string // relative to ws
	fifos, hard := map[string]bool{}, map[string]string{}
	for i := range 40 + r.Intn(40) {
		root := pick(roots)
		p := root
		for range r.Intn(3) {
			p += "/" + pick(hostileNames)
		}
		if len(dirs) > 0 && r.Intn(8) == 0 {
			p = pick(dirs) // nested in another skill's folder, or beside it
		}
		folder := pick(hostileNames)
		if r.Intn(3) == 0 {
			folder = fmt.Sprintf("f%d", i)
		}
		dir := p + "/" + folder
		name := folder
		if r.Intn(3) == 0 {
			name = pick(hostileNames)
		}
		if strings.ContainsAny(name[:1], "._") || name == "node_modules" || name == "skill.md" {
			name = "n" + name
		}
		file := dir + "/" + SkillFile
		switch r.Intn(12) {
		case 0:
			if !links {
				break
			}
			file = dir + "/" + pick([]string{"skill.md", "Skill.md", "SKILL.MD"})
		case 1:
			if links && strings.HasPrefix(root, "extra") || root == "skills" {
				file = p + "/" + folder + ".md" // flat form
			}
		}
		var content string
		k := r.Intn(24)
		if !links && k >= 5 && k <= 7 {
			k = 24
		}
		switch {
		case k == 0:
			content = "---\nname: " + name + "\ndescription: hidden " + name + "\ndisable-model-invocation: true\n---\n"
		case k == 1:
			content = "---\nname: " + name + "\n---\nno description\n"
		case k == 2:
			content = "---\nname: [" + name + "\n---\n"
		case k == 3:
			content = "# no frontmatter\n"
		case k == 4:
			content = skillMD(name) + strings.Repeat("long body line\n", 20)
		case k == 5 && len(skillFiles) > 0:
			content = "-> " + relLink(file, pick(skillFiles))
		case k == 6:
			content = "-> " + pick([]string{"missing.md", SkillFile, "../" + folder + "/" + SkillFile, filepath.Join(e.home, "out.md")})
		case k == 7 && len(dirs) > 0:
			// A folder symlink beside the skill: to another skill's
			// folder, out of the boundary, dangling, or up (a loop).
			files[dir+"-link"] = "-> " + pick([]string{relLink(dir+"-link", pick(dirs)), e.home, "nowhere", ".", ".."})
			content = skillMD(name)
		case k == 8 && len(skillFiles) > 0:
			hard[file] = pick(skillFiles)
			continue
		case k == 9:
			fifos[file] = true
			continue
		case k == 10:
			files[file+"/x"] = "a folder named SKILL.md"
			continue
		case k == 11:
			files[dir+"/notes.txt"] = "loose"
			files[dir+"/sub/notes.txt"] = "loose"
			continue
		default:
			content = skillMD(name)
		}
		files[file] = content
		dirs = append(dirs, dir)
		if !strings.HasPrefix(content, "-> ") {
			skillFiles = append(skillFiles, file)
		}
	}
	patterns := []string{"a", "/a", "!a", "x*", "grp/", "**/b", "*/f1*", "!/zed", "[", "A/", "f2*", "!f2*"}
	for _, root := range roots {
		if r.Intn(2) == 0 {
			var lines []string
			for range 1 + r.Intn(4) {
				lines = append(lines, pick(patterns))
			}
			files[root+"/"+ignore.FileName] = strings.Join(lines, "\n") + "\n"
		}
	}
	files[".claude/skills/loose.md"] = skillMD("loose")
	writeLoose(e.ws, files)
	must(t, os.WriteFile(filepath.Join(e.home, "out.md"), []byte(skillMD("out")), 0o644))
	home := filepath.Join(e.home, ".claude/skills")
	writeTree(t, home, map[string]string{"a/SKILL.md": skillMD("a"), "b/SKILL.md": skillMD("a"), "zed/SKILL.md": skillMD("x")})
	for f := range fifos {
		p := filepath.Join(e.ws, f)
		if os.MkdirAll(filepath.Dir(p), 0o755) == nil {
			_ = syscall.Mkfifo(p, 0o644)
		}
	}
	for f, to := range hard {
		p := filepath.Join(e.ws, f)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if fi, err := os.Lstat(filepath.Join(e.ws, to)); err == nil && fi.Mode().IsRegular() {
			_ = os.Link(filepath.Join(e.ws, to), p)
		}
	}
	return []string{filepath.Join(e.ws, "extra"), filepath.Join(e.ws, "skills/grp"), filepath.Join(e.ws, ".claude/skills/loose.md")}
}

// writeLoose is writeTree that skips what cannot be made (a file where
// another entry wanted a folder): random trees ask for such clashes.
func writeLoose(dir string, files map[string]string) {
	keys := slices.Sorted(maps.Keys(files))
	for _, rel := range keys {
		content := files[rel]
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
			continue
		}
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			_ = os.Symlink(target, p)
		} else {
			_ = os.WriteFile(p, []byte(content), 0o644)
		}
	}
}

// relLink is the relative symlink target at from (a path relative to the
// workspace) that leads to to.
func relLink(from, to string) string {
	rel, err := filepath.Rel(filepath.Dir(from), to)
	if err != nil {
		return to
	}
	return rel
}

// TestEachAgreesOnHostileTrees lists random hostile trees (hostileTree)
// with List and Each (e.list compares them: every skill and field, the
// order and the diagnostics, as Each runs and in lockstep with its walk)
// under each limit (maxSkills, depth, file size, folders), with one, two
// and four processors.
func TestEachAgreesOnHostileTrees(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := range int64(seeds) {
		e := newEnv(t)
		extra := hostileTree(t, e, seed, seed%2 == 1)
		runtime.GOMAXPROCS([]int{1, 2, 4}[seed%3])
		for _, o := range []Options{
			{},
			{MaxSkills: 3},
			{MaxDepth: 1},
			{MaxSkillBytes: 90},
			{MaxFolders: 12},
		} {
			o.ExtraPaths = extra
			o.NoConfigFile = true
			t.Run(fmt.Sprintf("seed%d/%+v", seed, o), func(t *testing.T) {
				e.list(t, &o)
			})
		}
	}
}

// TestEachStopsAnywhere stops Each on hostile trees at every place it can
// stop: fn fails at each skill in turn, and the context is cancelled as
// the walk finds each skill file in turn (in lockstep, so that the walk
// is there when it is cancelled, and as it runs). Each returns the error,
// hands out no skill after it, and leaves no descriptor and no goroutine
// behind.
func TestEachStopsAnywhere(t *testing.T) {
	defer func(f func(string)) { eachLockstep = f }(eachLockstep)
	for seed := range int64(2) {
		e := newEnv(t)
		extra := hostileTree(t, e, seed, seed%2 == 1)
		opts := e.opts(&Options{ExtraPaths: extra, NoConfigFile: true})
		_, full := e.list(t, opts)
		found := 0
		eachLockstep = func(string) { found++ }
		c, err := New(context.Background(), opts)
		must(t, err)
		if _, err := c.each(context.Background(), func(*Listing, *Skill) error { return nil }); err != nil {
			t.Fatal(err)
		}
		files := found
		fds, goroutines := openFDs(t), runtime.NumGoroutine()
		stop := errors.New("stop")
		check := func(what string, err, want error) {
			t.Helper()
			if !errors.Is(err, want) {
				t.Errorf("seed %d, %s: Each returned %v, want %v", seed, what, err, want)
			}
			if after := openFDs(t); after != fds {
				t.Errorf("seed %d, %s: %d descriptors open before Each, %d after", seed, what, fds, after)
			}
			// Fewer is not a leak: the count before may take in a
			// goroutine of the listing before it still on its way out.
			if after := settled(goroutines); after > goroutines {
				buf := make([]byte, 1<<16)
				t.Errorf("seed %d, %s: %d goroutines before Each, %d after\n%s", seed, what, goroutines, after, buf[:runtime.Stack(buf, true)])
			}
		}
		for k := range len(full.Skills) {
			for _, step := range []func(string){nil, func(string) {}} {
				eachLockstep = step
				c, err := New(context.Background(), opts)
				must(t, err)
				handed := 0
				finishes(t, func() {
					_, err = c.each(context.Background(), func(_ *Listing, s *Skill) error {
						if handed > k {
							t.Errorf("seed %d: skill %s handed out after fn failed", seed, s.Name)
						}
						if s.Location != full.Skills[handed].Location {
							t.Errorf("seed %d: skill %d is %s, List has %s", seed, handed, s.Location, full.Skills[handed].Location)
						}
						handed++
						if handed == k+1 {
							return stop
						}
						return nil
					})
				})
				check(fmt.Sprintf("fn fails at skill %d (lockstep %v)", k, step != nil), err, stop)
			}
		}
		for k := range files {
			c, err := New(context.Background(), opts)
			must(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			n := 0
			eachLockstep = func(string) {
				if n++; n == k+1 {
					cancel()
				}
			}
			handed := 0
			finishes(t, func() {
				_, err = c.each(ctx, func(_ *Listing, s *Skill) error {
					if handed >= len(full.Skills) || s.Location != full.Skills[handed].Location {
						t.Errorf("seed %d, cancelled at file %d: skill %d is %s, not List's", seed, k, handed, s.Location)
					}
					handed++
					return nil
				})
			})
			cancel()
			check(fmt.Sprintf("cancelled at file %d", k), err, context.Canceled)
		}
	}
}

// TestEachCancelledBetweenFiles cancels Each while its walk is in a
// folder after the last skill file it found: a skill whose name is not
// its folder's, which a later skill of that name would take the place of,
// is held, and the walk ends early. Each returns the context's error and
// hands that skill to fn at no point: List never lists it.
func TestEachCancelledBetweenFiles(t *testing.T) {
	defer func(f func(string)) { eachLockstep = f }(eachLockstep)
	defer func(f func(string)) { walkVisit = f }(walkVisit)
	defer settled(runtime.NumGoroutine())
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		".agents/skills/a/SKILL.md":    skillMD("b"),
		".agents/skills/aa/x/notes.md": "not a skill",
		".agents/skills/b/SKILL.md":    skillMD("b"),
	})
	opts := e.opts(&Options{NoUser: true})
	_, full := e.list(t, opts)
	if len(full.Skills) != 1 || !strings.HasSuffix(full.Skills[0].Location, "/b/SKILL.md") {
		t.Fatalf("List: %v, want b from b/SKILL.md", names(full))
	}
	for _, step := range []bool{false, true} {
		c, err := New(context.Background(), opts)
		must(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		eachLockstep = nil
		if step {
			eachLockstep = func(string) {}
		}
		walkVisit = func(dir string) {
			if strings.HasSuffix(dir, "/aa/x") {
				cancel()
			}
		}
		_, err = c.each(ctx, func(_ *Listing, s *Skill) error {
			t.Errorf("lockstep %v: Each handed out %s from %s after the context was cancelled", step, s.Name, s.Location)
			return nil
		})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("lockstep %v: Each returned %v, want %v", step, err, context.Canceled)
		}
	}
}

// settled waits for the goroutines of a listing that has returned to
// exit (one that has done its work may not have yet: finishes' own, or a
// reader past its last read), so that a test that counts goroutines next
// is not misled, and returns how many are left. It returns as soon as they
// are down to want; its bound (30 s, where it was 2,000 naps of a
// millisecond, which a loaded machine could outlast) only ends the wait
// for a goroutine that leaked and will never exit.
func settled(want int) int {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if runtime.NumGoroutine() <= want {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return runtime.NumGoroutine()
}

// FuzzEachAgrees is TestEachAgreesOnHostileTrees for any seed, any
// maxSkills and any depth limit: the hostile tree of the seed listed by
// List and by Each (e.list) must give the same skills, fields, order and
// diagnostics.
func FuzzEachAgrees(f *testing.F) {
	f.Add(int64(0), true, uint8(0), uint8(0))
	f.Add(int64(7), false, uint8(3), uint8(1))
	f.Fuzz(func(t *testing.T, seed int64, links bool, maxSkills, maxDepth uint8) {
		e := newEnv(t)
		extra := hostileTree(t, e, seed, links)
		e.list(t, &Options{ExtraPaths: extra, NoConfigFile: true, MaxSkills: int(maxSkills % 40), MaxDepth: int(maxDepth % 5)})
	})
}
