package catalog

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestNameClashPrefersOwnFolder checks the tie-break between two skills of
// one root that share a name: the copy whose name is its folder's loads,
// even when it is found second, and the diagnostic names both files.
// Between roots, precedence is unchanged.
func TestNameClashPrefersOwnFolder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/a-copy/SKILL.md":   skillMD("tool"), // found first, not its folder's name
		"skills/tool/SKILL.md":     skillMD("tool"),
		"skills/b-first/SKILL.md":  skillMD("both"), // neither is its folder's: the first wins
		"skills/c-second/SKILL.md": skillMD("both"),
	})
	writeTree(t, e.home, map[string]string{
		".agents/skills/other/SKILL.md": skillMD("other"),
	})
	extra := filepath.Join(e.home, "extra")
	writeTree(t, extra, map[string]string{
		"x/SKILL.md":     skillMD("other"), // another scope: shadowed, whatever its folder
		"other/SKILL.md": skillMD("tool"),
	})
	_, l := e.list(t, &Options{ExtraPaths: []string{extra}})
	got := map[string]string{}
	for _, s := range l.Skills {
		got[s.Name] = s.Location
	}
	want := map[string]string{
		"tool":  filepath.Join(e.ws, "skills/tool/SKILL.md"),
		"both":  filepath.Join(e.ws, "skills/b-first/SKILL.md"),
		"other": filepath.Join(e.home, ".agents/skills/other/SKILL.md"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loaded (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"tool", "both", "other"}, names(l)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	var d *skill.Diagnostic
	for i := range l.Diagnostics {
		if l.Diagnostics[i].Code == diagcode.DuplicateName && l.Diagnostics[i].Skill == "tool" {
			d = &l.Diagnostics[i]
		}
	}
	loser, winner := filepath.Join(e.ws, "skills/a-copy/SKILL.md"), filepath.Join(e.ws, "skills/tool/SKILL.md")
	if d == nil || d.Path != loser || d.Related != winner || !strings.Contains(d.Message, winner) || !strings.Contains(d.Message, `"a-copy"`) {
		t.Errorf("duplicate-name of tool does not name both copies: %+v", d)
	}
	var shadowed []string
	for _, d := range l.Diagnostics {
		if d.Code == diagcode.Shadowed || d.Code == diagcode.DuplicateName {
			rel, _ := filepath.Rel(filepath.Dir(e.ws), d.Path)
			shadowed = append(shadowed, string(d.Code)+" "+filepath.ToSlash(rel))
		}
	}
	wantLost := []string{
		"shadowed home/extra/other/SKILL.md",
		"shadowed home/extra/x/SKILL.md",
		"duplicate-name ws/skills/a-copy/SKILL.md",
		"duplicate-name ws/skills/c-second/SKILL.md",
	}
	if diff := cmp.Diff(wantLost, shadowed); diff != "" {
		t.Errorf("clashes (-want +got):\n%s", diff)
	}
}

// TestNoSkillVanishes builds trees where a skill folder that does not load
// (a name clash lost, a parse error, a tie-break lost, unreadable) holds
// skills of its own, and checks that each nested SKILL.md gets a
// nested-skill diagnostic naming it and the outer file, and that every
// SKILL.md of the tree loads, is named by a diagnostic, or is a bundled
// file of a skill that loads.
func TestNoSkillVanishes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/tool/SKILL.md":                          skillMD("tool"),
		"skills/zz-tool/SKILL.md":                       skillMD("tool"), // loses the clash
		"skills/zz-tool/sub/SKILL.md":                   skillMD("sub"),
		"skills/zz-tool/group/deeper/SKILL.md":          skillMD("deeper"),
		"skills/zz-tool/group/deeper/inner/skill.md":    skillMD("inner"),
		"skills/zz-tool/_draft/SKILL.md":                skillMD("draft"), // skipped by name, as everywhere
		"skills/a-tie/SKILL.md":                         skillMD("tie"),   // loses the tie-break
		"skills/a-tie/kept/SKILL.md":                    skillMD("kept"),
		"skills/tie/SKILL.md":                           skillMD("tie"),
		"skills/broken/SKILL.md":                        "---\nname: broken\n\tdescription: x\n---\nbody\n",
		"skills/broken/inner/SKILL.md":                  skillMD("inner-of-broken"),
		"skills/loads/SKILL.md":                         skillMD("loads"),
		"skills/loads/references/example/SKILL.md":      skillMD("example"), // a bundled file
		"skills/group/nested-group/leaf/SKILL.md":       skillMD("leaf"),
		"skills/nodesc/SKILL.md":                        "---\nname: nodesc\n---\n",
		"skills/nodesc/child/SKILL.md":                  skillMD("child"),
		".agents/skills/shadow/SKILL.md":                skillMD("shadow"),
		"skills/shadow/SKILL.md":                        "---\nname: shadow\ndescription: Another shadow.\n---\nOther body.\n",
		"skills/shadow/under/SKILL.md":                  skillMD("under-shadow"),
		"skills/symlinked/SKILL.md":                     "-> ../nowhere/SKILL.md",
		"skills/symlinked/nested/SKILL.md":              skillMD("nested-of-link"),
		"skills/loads/references/example/more/SKILL.md": skillMD("more"),
	})
	_, l := e.list(t, nil)
	nested := map[string]string{}
	for _, d := range l.Diagnostics {
		if d.Code == diagcode.NestedSkill {
			rel, _ := filepath.Rel(e.ws, d.Path)
			outer, _ := filepath.Rel(e.ws, d.Related)
			nested[filepath.ToSlash(rel)] = filepath.ToSlash(outer)
			if !strings.Contains(d.Message, filepath.Dir(d.Related)) {
				t.Errorf("nested-skill does not name the outer folder: %v", d)
			}
		}
	}
	want := map[string]string{
		"skills/zz-tool/sub/SKILL.md":                "skills/zz-tool/SKILL.md",
		"skills/zz-tool/group/deeper/SKILL.md":       "skills/zz-tool/SKILL.md",
		"skills/zz-tool/group/deeper/inner/skill.md": "skills/zz-tool/SKILL.md",
		"skills/a-tie/kept/SKILL.md":                 "skills/a-tie/SKILL.md",
		"skills/broken/inner/SKILL.md":               "skills/broken/SKILL.md",
		"skills/nodesc/child/SKILL.md":               "skills/nodesc/SKILL.md",
		"skills/shadow/under/SKILL.md":               "skills/shadow/SKILL.md",
		"skills/symlinked/nested/SKILL.md":           "skills/symlinked/SKILL.md",
	}
	if diff := cmp.Diff(want, nested); diff != "" {
		t.Errorf("nested-skill diagnostics (-want +got):\n%s", diff)
	}
	assertNoneVanish(t, l, []string{e.ws})
}

// TestCorpusNoneVanish checks the same on the published corpus.
func TestCorpusNoneVanish(t *testing.T) {
	t.Parallel()
	dir := testcorpus.Dir(t)
	for _, strict := range []bool{false, true} {
		e := newEnv(t)
		roots := testcorpus.Roots(dir)
		_, l := e.list(t, &Options{NoUser: true, Strict: strict, ExtraPaths: roots})
		assertNoneVanish(t, l, roots)
	}
}

// assertNoneVanish walks dirs for skill files (SKILL.md in any letter case)
// outside folders discovery skips by name (the roots themselves may be such
// folders), and fails for each that neither loads, nor is named by a
// diagnostic, nor lies inside the folder of a skill that loads (a bundled
// file).
func assertNoneVanish(t *testing.T, l *Listing, dirs []string) {
	t.Helper()
	loaded := map[string]bool{}
	var bases []string
	for _, s := range l.Skills {
		loaded[s.Location] = true
		bases = append(bases, s.BaseDir)
	}
	named := map[string]bool{}
	for _, d := range l.Diagnostics {
		named[d.Path] = true
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && p != dir && ignored(d.Name()) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.EqualFold(d.Name(), SkillFile) {
				return nil
			}
			if !loaded[p] && !named[p] && !below(p, bases) {
				t.Errorf("%s neither loads, nor is named by a diagnostic, nor is a bundled file of a loaded skill", p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
