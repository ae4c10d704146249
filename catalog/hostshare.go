package catalog

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/profile"
)

// shareLine is one skill's line in a token-share catalog
// (profile.TokenShare): "- NAME: DESCRIPTION (file: PATH)".
type shareLine struct {
	v         *hostVerdict // nil for a skill the host ships itself
	rank      int          // 0 the host's own, 1 project, 2 user
	name      string
	desc      string
	path      string // rN/REL
	fullPath  string // for the order: the absolute path
	descChars int    // for a built-in whose description is not known
	builtin   bool
}

// quarterTokens is the cost of a text of n bytes: four bytes a token, rounded up.
func quarterTokens(n int) int { return (n + 3) / 4 }

// minimumBytes is the length of the line with no description and its
// line break: len("- "+l.name+": (file: "+l.path+")") + 1, the line not
// made (a copy of each name and path each time the token share weighed a
// line: 0.2 MB of what a lint --compat run over both corpus folders
// allocates, pprof -sample_index=alloc_space).
func (l *shareLine) minimumBytes() int {
	return len("- ") + len(l.name) + len(": (file: ") + len(l.path) + len(")") + 1
}

// descBytes returns the bytes of the description's first k characters.
func (l *shareLine) descBytes(k int) int {
	if l.builtin {
		return k // ASCII
	}
	for i := range l.desc {
		if k == 0 {
			return i
		}
		k--
	}
	return len(l.desc)
}

func (l *shareLine) chars() int {
	if l.builtin {
		return l.descChars
	}
	return utf8.RuneCountInString(l.desc)
}

// extraCost is what showing k characters of the description adds to the
// line's cost with none.
func (l *shareLine) extraCost(k int) int {
	if k == 0 {
		return 0
	}
	m := l.minimumBytes()
	return quarterTokens(m+l.descBytes(k)+1) - quarterTokens(m)
}

// applyTokenShare cuts the descriptions of the loaded skills, or leaves
// skills out, as a host with a token-share budget does
// (profile.TokenShare), and records each change. home is the home folder
// (for the host's own skills' root).
func applyTokenShare(p *profile.Profile, vs []hostVerdict, home string) {
	sh := p.Disclosure.Share
	if sh.Tokens == 0 {
		return
	}
	lines, roots := shareLines(sh, vs, home)
	table := sh.TableBytes
	for i, r := range roots {
		table += len(fmt.Sprintf("- `r%d` = `%s`", i, r)) + 1
	}
	limit := sh.Tokens - quarterTokens(table)
	full, minimum := 0, 0
	for _, l := range lines {
		full += quarterTokens(l.minimumBytes() + l.descBytes(l.chars()) + 1)
		minimum += quarterTokens(l.minimumBytes())
	}
	switch {
	case full <= limit:
		return
	case minimum <= limit:
		shareOut(lines, limit-minimum, sh.Tokens)
	default:
		used := 0
		for _, l := range lines {
			cost := quarterTokens(l.minimumBytes())
			if used+cost > limit {
				if l.v != nil {
					l.v.Loaded = false
					l.v.Reason = fmt.Sprintf("the catalog's budget of %d tokens is spent before it: its line is left out", sh.Tokens)
				}
				continue
			}
			used += cost
			cutTo(l, 0, sh.Tokens)
		}
	}
}

// shareOut gives each line one more character of its description in turn,
// while its added cost fits in what is left, until none can take one.
func shareOut(lines []*shareLine, left, budget int) {
	got := make([]int, len(lines))
	cost := make([]int, len(lines))
	for changed := true; changed; {
		changed = false
		for i, l := range lines {
			if got[i] >= l.chars() {
				continue
			}
			next := l.extraCost(got[i] + 1)
			if d := next - cost[i]; d <= left {
				got[i]++
				cost[i] = next
				left -= d
				changed = true
			}
		}
	}
	for i, l := range lines {
		cutTo(l, got[i], budget)
	}
}

// cutTo shows the first k characters of a workspace skill's description.
func cutTo(l *shareLine, k, budget int) {
	if l.v == nil || k >= l.chars() {
		return
	}
	v := l.v
	v.Description = l.desc[:l.descBytes(k)]
	v.Changes = append(v.Changes, fmt.Sprintf("description cut to %d characters: the catalog's budget of %d tokens is shared by every skill", k, budget))
	if v.Skill != nil {
		cp := *v.Skill
		cp.Description = v.Description
		v.Skill = &cp
	}
}

// shareLines are the catalog's lines in the host's order (its own skills,
// project, user; each by name then path) and the roots of its table.
func shareLines(sh profile.TokenShare, vs []hostVerdict, home string) ([]*shareLine, []string) {
	var lines []*shareLine
	var roots []string
	rootIndex := func(r string) int {
		if i := slices.Index(roots, r); i >= 0 {
			return i
		}
		roots = append(roots, r)
		return len(roots) - 1
	}
	if len(sh.Builtins) > 0 {
		broot := filepath.Join(home, strings.TrimPrefix(sh.BuiltinRoot, "~/"))
		n := rootIndex(broot)
		for _, b := range sh.Builtins {
			lines = append(lines, &shareLine{rank: 0, name: b.Name, builtin: true, descChars: b.Chars,
				path: fmt.Sprintf("r%d/%s/SKILL.md", n, b.Name), fullPath: filepath.Join(broot, b.Name, "SKILL.md")})
		}
	}
	for i := range vs {
		v := &vs[i]
		if !v.Loaded || v.Hidden {
			continue
		}
		rank := 1
		if v.Scope == ScopeUser {
			rank = 2
		}
		rel, err := filepath.Rel(v.Root, v.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = v.Path
		}
		n := rootIndex(v.Root)
		lines = append(lines, &shareLine{v: v, rank: rank, name: v.Name, desc: v.Description,
			path: fmt.Sprintf("r%d/%s", n, filepath.ToSlash(rel)), fullPath: v.Path})
	}
	slices.SortStableFunc(lines, func(a, b *shareLine) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return strings.Compare(a.fullPath, b.fullPath)
	})
	return lines, roots
}
