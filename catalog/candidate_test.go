package catalog

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

// TestCandidateBaseDir lists each shape the walk finds a skill file in
// and requires every skill's base directory to be the folder the walk
// found it in, given here by hand: a candidate no longer keeps that folder
// beside its path (candidate.dir is the path's folder), so this holds the
// walk to building every path as the file's name joined to its folder's.
// Each hands out the same (e.list).
func TestCandidateBaseDir(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/alpha/SKILL.md":                skillMD("alpha"),
		"skills/beta.md":                       skillMD("beta"), // flat, directly in a root
		"skills/group/gamma/SKILL.md":          skillMD("gamma"),
		"skills/lower/skill.md":                skillMD("lower"), // another letter case
		"skills/upper/Skill.MD":                skillMD("upper"),
		"real/delta/SKILL.md":                  skillMD("delta"), // reached through a symlink below
		"extra/epsilon/SKILL.md":               skillMD("epsilon"),
		"loose/zeta.md":                        skillMD("zeta"), // a root that is a file
		".claude/skills/eta/SKILL.md":          skillMD("eta"),
		"plugins/p/.claude-plugin/plugin.json": `{"name": "p"}`,
		"plugins/p/skills/theta/SKILL.md":      skillMD("theta"),
	})
	if err := os.Symlink(filepath.Join(e.ws, "real"), filepath.Join(e.ws, "skills", "linked")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	_, l := e.list(t, &Options{NoUser: true, ExtraPaths: []string{
		filepath.Join(e.ws, "extra"), filepath.Join(e.ws, "loose", "zeta.md"), filepath.Join(e.ws, "plugins"),
	}})
	want := map[string]string{
		"alpha":   "skills/alpha",
		"beta":    "skills",
		"gamma":   "skills/group/gamma",
		"lower":   "skills/lower",
		"upper":   "skills/upper",
		"delta":   "skills/linked/delta",
		"epsilon": "extra/epsilon",
		"zeta":    "loose",
		"eta":     ".claude/skills/eta",
		"p:theta": "plugins/p/skills/theta",
	}
	got := map[string]string{}
	for _, s := range l.Skills {
		rel, err := filepath.Rel(e.ws, s.BaseDir)
		if err != nil {
			t.Fatal(err)
		}
		got[s.Name] = filepath.ToSlash(rel)
	}
	for name, dir := range want {
		if got[name] != dir {
			t.Errorf("%s: base directory %q, want %q", name, got[name], dir)
		}
	}
	if len(got) != len(want) {
		t.Errorf("skills %v, want %v", got, want)
	}
}

// TestCandidateSize holds a candidate, of which a listing keeps one per
// skill file until the walk's end on some trees (docs/performance.md), to
// its size: 80 bytes on 64-bit platforms (120 before it shared its folder,
// plugin and open root, 88 before it shared its root).
func TestCandidateSize(t *testing.T) {
	t.Parallel()
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	if n := unsafe.Sizeof(candidate{}); n > 80 {
		t.Errorf("a candidate takes %d bytes, want at most 80", n)
	}
}

// TestChildSize holds a folder entry of the walk, of which it keeps one for
// every entry of the folder it is in, to 24 bytes on 64-bit platforms (40
// with its path as a slice), and requires what newChild builds read back:
// the path, the name, the NUL-terminated bytes, SKILL.md's path for a
// folder or symlink and none for a file.
func TestChildSize(t *testing.T) {
	t.Parallel()
	if unsafe.Sizeof(uintptr(0)) == 8 {
		if n := unsafe.Sizeof(child{}); n > 24 {
			t.Errorf("a child takes %d bytes, want at most 24", n)
		}
	}
	for _, tc := range []struct {
		dir, name string
		withSkill bool
	}{
		{"/a/b", "skill-one", true},
		{"/a/b", "notes.md", false},
		{"/", "x", true},
		{"/", "y", false},
		{"rel", "z", true},
	} {
		c := newChild(tc.dir, tc.name, 0, tc.withSkill)
		path := filepath.Join(tc.dir, tc.name)
		if c.path() != path || c.name() != tc.name {
			t.Errorf("newChild(%q, %q): path %q, name %q; want %q, %q", tc.dir, tc.name, c.path(), c.name(), path, tc.name)
		}
		sk := c.skill()
		if want := filepath.Join(path, SkillFile); sk.path != want || string(sk.z) != want+"\x00" {
			t.Errorf("newChild(%q, %q).skill() = %q, %q; want %q and its NUL", tc.dir, tc.name, sk.path, sk.z, want)
		}
		ref := c.ref()
		if ref.path != path || tc.withSkill != (ref.z == nil) || ref.z != nil && string(ref.z) != path+"\x00" {
			t.Errorf("newChild(%q, %q).ref() = %q, %q", tc.dir, tc.name, ref.path, ref.z)
		}
	}
}
