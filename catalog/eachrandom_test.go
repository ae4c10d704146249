package catalog

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestEachAgreesOnRandomTrees lists generated trees of clashing names
// (three project roots, grouping folders, names that are not their
// folder's, SKILL.md symlinks to other skills' files, folder symlinks,
// skills without a description) with List and Each (e.list compares them).
// One of the trees has no symlinks, so that Each hands skills out while the
// walk goes on (a symlink makes it wait for the walk's end from there on).
func TestEachAgreesOnRandomTrees(t *testing.T) {
	pool := []string{"alpha", "beta", "gamma", "f0001", "f0002", "f0100", "f0399", "zed"}
	roots := []string{".agents/skills", ".claude/skills", "skills"}
	for seed := range 4 {
		links := seed < 3
		if testing.Short() && (seed == 1 || seed == 2) {
			continue // -short: one tree with links, one without
		}
		r := rand.New(rand.NewSource(int64(seed)))
		e := newEnv(t)
		files := map[string]string{}
		for i := range 400 {
			root := roots[r.Intn(len(roots))]
			folder := fmt.Sprintf("f%04d", i)
			if r.Intn(10) == 0 {
				folder = pool[r.Intn(len(pool))]
			}
			name := folder
			if r.Intn(4) == 0 {
				name = pool[r.Intn(len(pool))]
			}
			p := root + "/" + folder + "/" + SkillFile
			if r.Intn(3) == 0 {
				p = fmt.Sprintf("%s/grp%d/%s/%s", root, r.Intn(3), folder, SkillFile)
			}
			switch k := r.Intn(20); {
			case k == 0 && i > 0 && links:
				files[p] = fmt.Sprintf("-> ../f%04d/%s", r.Intn(i), SkillFile)
			case k == 1 && links:
				files[root+"/"+folder+"-link"] = "-> " + folder
				files[p] = skillMD(name)
			case k == 2:
				files[p] = "---\nname: " + name + "\n---\nno description\n"
			default:
				files[p] = skillMD(name)
			}
		}
		writeTree(t, e.ws, files)
		e.list(t, &Options{NoUser: true, MaxSkills: 50})
		e.list(t, &Options{NoUser: true})
		if !links {
			// Each holding so few skills that it waits for the walk.
			h := eachHeld
			eachHeld = 3
			e.list(t, &Options{NoUser: true})
			eachHeld = h
		}
	}
}
