package lint

import (
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"

	"github.com/skillet-go/skillet/internal/hostws"
)

// layoutFolders are the skill folders randomLayout places skills in: every
// project folder a host profile reads (docs/hosts.md), and one that none
// reads.
var layoutFolders = []string{
	".agents/skills", ".claude/skills", ".codex/skills", ".opencode/skills", ".opencode/skill",
	".gemini/skills", ".github/skills", ".copilot/skills", ".qwen/skills", ".pi/skills",
	".brute/skills", ".kestrel/skills", "skills", "docs/skills",
}

// layoutUser are the user folders randomLayout may fill, below home/.
var layoutUser = []string{
	".agents/skills", ".claude/skills", ".codex/skills", ".copilot/skills", ".config/opencode/skills",
	".gemini/skills", ".qwen/skills", ".pi/agent/skills",
}

// randomLayout generates a workspace from seed that varies where skill
// files sit, not what they say: the git root (a .git folder, a .git file
// as a linked worktree has, or none), the working folder at or below it,
// skill folders of every host at the working folder, between it and the
// git root, above the git root and below the working folder, grouping
// folders, dot, underscore and node_modules entries, a skill inside
// another's folder, flat NAME.md files, clashing names, a root that is a
// symlink to a folder outside the project (holding a dot folder), a skill
// folder linked in from outside, and user folders in home/. The same seed
// gives the same workspace.
func randomLayout(seed uint64) *hostws.Workspace {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	w := &hostws.Workspace{Name: fmt.Sprintf("layout-%d", seed)}
	levels := []string{"proj", "proj/a", "proj/a/b"}
	w.Cwd = levels[r.IntN(len(levels))]
	switch r.IntN(3) {
	case 0:
		w.Git = []string{"proj"}
	case 1:
		w.Files = append(w.Files, hostws.File{Name: "proj/.git", Data: []byte("gitdir: ../.git/worktrees/proj\n")})
	}
	names := []string{"alpha", "beta", "gamma", "delta", "eps"}
	n := 0
	skill := func(dir string) {
		n++
		name := names[r.IntN(len(names))]
		var body string
		switch r.IntN(8) {
		case 0:
			body = "# Heading\n\nNo frontmatter.\n"
		case 1:
			body = "---\nname: " + name + "\n---\nNo description.\n"
		default:
			body = fmt.Sprintf("---\nname: %s\ndescription: Skill %d of the layout.\n---\nBody.\n", name, n)
		}
		w.Files = append(w.Files, hostws.File{Name: dir + "/SKILL.md", Data: []byte(body)})
	}
	places := []string{"", "proj", "proj/a", "proj/a/b", "proj/a/b/c"}
	for range 2 + r.IntN(6) {
		at := places[r.IntN(len(places))]
		folder := layoutFolders[r.IntN(len(layoutFolders))]
		root := path.Join(at, folder)
		for range 1 + r.IntN(3) {
			sub := fmt.Sprintf("s%d", r.IntN(6))
			switch r.IntN(10) {
			case 0:
				sub = "group/" + sub
			case 1:
				sub = ".hidden/" + sub
			case 2:
				sub = "_draft/" + sub
			case 3:
				sub = "node_modules/" + sub
			case 4:
				sub = "outer/inner/" + sub
				skill(root + "/outer")
			case 5:
				w.Files = append(w.Files, hostws.File{Name: root + "/" + sub + ".md",
					Data: []byte("---\nname: " + sub + "\ndescription: A flat file.\n---\nBody.\n")})
				continue
			}
			if !slices.ContainsFunc(w.Files, func(f hostws.File) bool { return f.Name == root+"/"+sub+"/SKILL.md" }) {
				skill(root + "/" + sub)
			}
		}
	}
	for range r.IntN(3) {
		skill(path.Join("home", layoutUser[r.IntN(len(layoutUser))], fmt.Sprintf("u%d", r.IntN(4))))
	}
	if r.IntN(3) == 0 {
		// A root that is a symlink to a collection outside, with a dot
		// folder in it.
		folder := layoutFolders[r.IntN(len(layoutFolders))]
		skill("outside/coll/c1")
		skill("outside/coll/.dot/c2")
		link := path.Join(w.Cwd, folder)
		w.Symlinks = append(w.Symlinks, hostws.Link{Link: link, Target: "/outside/coll"})
		w.Files = slices.DeleteFunc(w.Files, func(f hostws.File) bool { return strings.HasPrefix(f.Name, link+"/") })
	}
	if r.IntN(3) == 0 {
		folder := layoutFolders[r.IntN(len(layoutFolders))]
		if slices.ContainsFunc(w.Symlinks, func(l hostws.Link) bool { return l.Link == path.Join(w.Cwd, folder) }) {
			return w
		}
		skill("outside/linked")
		w.Symlinks = append(w.Symlinks, hostws.Link{Link: path.Join(w.Cwd, folder, "linked"), Target: "/outside/linked"})
	}
	return w
}
