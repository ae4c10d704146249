package catalog

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
)

// hostFiles is catalogx.Hooks.HostFiles: the verdicts of hostList for profile p
// on the workspace of opts (what `list --preset` lists and why each other
// file is not loaded), and the explanation of a file outside the host's
// folders.
func hostFiles(ctx context.Context, p *profile.Profile, opts *Options) (*catalogx.HostListing, error) {
	c, vs, err := hostVerdicts(ctx, p, opts)
	if err != nil {
		return nil, err
	}
	return hostListingOf(c, p, vs), nil
}

// hostListingOf is the catalogx.HostListing of verdicts vs of profile p,
// listed by catalog c.
func hostListingOf(c *Catalog, p *profile.Profile, vs []hostVerdict) *catalogx.HostListing {
	hl := &catalogx.HostListing{Where: func(file, root string) (string, string) { return c.hostWhere(p, file, root) },
		Files: make([]catalogx.HostFile, 0, len(vs))}
	for _, v := range vs {
		hl.Files = append(hl.Files, catalogx.HostFile{Verdict: v.Verdict, Path: v.Path, Root: v.Root, Scope: string(v.Scope)})
	}
	return hl
}

// hostFolders are the project folders profile p reads when started in the
// catalog's workspace (catalogx.Hooks.HostFolders), in the host's order.
func (c *Catalog) hostFolders(p *profile.Profile) []string {
	var out []string
	for _, r := range hostRoots(nil, p, c.workspace, c.env, true, nil) {
		if r.Scope == ScopeProject {
			out = append(out, r.Path)
		}
	}
	return out
}

// hostWhere says why profile p, run in the catalog's workspace, does not
// read a skill file found under root (none of its roots holds it), and what
// to do about it. When the file sits in one of the host's project folders
// of another folder D, the host reads it only when started in D (or below,
// for a host that walks up); otherwise the folder is none the host reads.
// The remedy names the host's first project folder of the workspace, and
// what would still keep the file from loading there (hostVerdictFor).
func (c *Catalog) hostWhere(p *profile.Profile, file, root string) (reason, remedy string) {
	ws := c.workspace
	dirs := projectDirs(nil, p, ws, c.env.home)
	show := func(x string) string { return c.shortPath(x) }
	into := ""
	if len(p.Roots.Project) > 0 && c.wsExists {
		into = sharedFolder(p)
	} else if len(p.Roots.User) > 0 && !c.opts.NoUser {
		into = p.Roots.User[0]
	}
	slash := filepath.ToSlash(file)
	for _, label := range p.Roots.Project {
		i := strings.LastIndex(slash, "/"+label+"/")
		if i < 0 {
			continue
		}
		d := filepath.FromSlash(slash[:i])
		if d == "" {
			d = string(filepath.Separator)
		}
		if strings.HasPrefix(filepath.Base(d), ".") {
			continue // .agents/skills read as the "skills" of a folder .agents: no working folder
		}
		readHere := d == filepath.Clean(ws) || (slices.Contains(dirs, d) && (len(p.Roots.WalkUpRoots) == 0 || slices.Contains(p.Roots.WalkUpRoots, label)))
		if readHere {
			continue // a folder it reads: not the reason
		}
		below := ""
		if p.Roots.WalkUp != "cwd" && (len(p.Roots.WalkUpRoots) == 0 || slices.Contains(p.Roots.WalkUpRoots, label)) {
			below = " or a folder below it"
		}
		reason = fmt.Sprintf("it reads %s only when started in %s%s, not in the working folder", show(filepath.Join(d, filepath.FromSlash(label))), show(d), below)
		remedy = fmt.Sprintf("start %s in %s", p.Name, show(d))
		if into != "" {
			remedy += fmt.Sprintf(", or move or link the skill folder into %s", into)
		}
		return reason, remedy + c.thereToo(p, file, root)
	}
	if c.opts.NoUser {
		for _, u := range p.Roots.User {
			if within(file, c.env.expand(u, c.env.home)) {
				return "its user folders are not read (--no-user)", "drop --no-user"
			}
		}
	}
	var reads []string
	if c.wsExists {
		reads = append(reads, p.Roots.Project...)
	}
	if !c.opts.NoUser {
		reads = append(reads, p.Roots.User...)
	}
	reason = fmt.Sprintf("it does not read %s", show(root))
	if len(reads) > 0 {
		reason += fmt.Sprintf(" (it reads %s)", strings.Join(reads, ", "))
	}
	if into == "" {
		return reason, "it reads no folder here"
	}
	return reason, fmt.Sprintf("move or link the skill folder into %s", into) + c.thereToo(p, file, root)
}

// sharedFolder is the project folder of p that the most other host
// profiles read too (the first on a tie): where a moved skill reaches the
// most agents (.agents/skills for Codex, .claude/skills for Claude Code).
func sharedFolder(p *profile.Profile) string {
	best, most := p.Roots.Project[0], -1
	for _, label := range p.Roots.Project {
		n := 0
		for _, q := range profile.All() {
			if !q.Native && slices.Contains(q.Roots.Project, label) {
				n++
			}
		}
		if n > most {
			best, most = label, n
		}
	}
	return best
}

// thereToo says what would still keep a file from loading once moved into
// one of profile p's folders, laid out below it as below root ("" when
// nothing would).
func (c *Catalog) thereToo(p *profile.Profile, file, root string) string {
	v := hostVerdictFor(p, file, root, "")
	if v.Loaded {
		return ""
	}
	return "; as it is, it would not load there either: " + v.Reason
}

// shortPath shows x relative to the workspace ("." for the workspace
// itself, "../x" above it within two levels), as ~/... below the home
// folder, else whole.
func (c *Catalog) shortPath(x string) string {
	ws := filepath.Clean(c.workspace)
	if rel, err := filepath.Rel(ws, x); err == nil && !strings.HasPrefix(rel, "../../..") {
		return filepath.ToSlash(rel)
	}
	if within(x, c.env.home) {
		rel, _ := filepath.Rel(c.env.home, x)
		return "~/" + filepath.ToSlash(rel)
	}
	return filepath.ToSlash(x)
}
