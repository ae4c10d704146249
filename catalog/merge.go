package catalog

import (
	"context"
	"fmt"
	"slices"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/skill"
)

// codeDisabled is the diagnostic of a skill left out by the enable or
// disable lists, and of a name in them that no source holds.
const codeDisabled skill.Code = "skill-disabled"

var _ = skill.Register(skill.CodeInfo{Code: codeDisabled, Severity: skill.SeverityNote,
	Summary: "a skill is left out by the enable or disable list, or the list names a skill no source holds",
	Remedy:  "change enable or disable in skillet.yaml (or Options.Enable and Options.Disable)",
	Source:  "docs/discovery.md#enable",
	Help: "skillet.yaml's enable key lists the only skills a project loads, and disable the skills it leaves out; a skill left out is neither listed nor loadable. " +
		"A name in either list that matches no skill is a warning: it is most likely misspelt."})

// listAll is List for a catalog with Sources or an enable or disable
// list: each source's skills in the order of Options.Sources, the first
// skill of a name winning (shadowed), then the enable and disable lists,
// then maxSkills over the whole.
func (c *Catalog) listAll(ctx context.Context) (*Listing, error) {
	c.mergeMu.Lock()
	defer c.mergeMu.Unlock()
	l := &Listing{Workspace: c.workspace}
	var skills []*Skill
	var diags []skill.Diagnostic
	srcs := c.sources
	if srcs == nil {
		srcs = []*source{{disk: true}}
	}
	for _, src := range srcs {
		if !src.disk {
			ss, d := src.list(ctx, c)
			skills = append(skills, ss...)
			diags = append(diags, d...)
			l.Roots = append(l.Roots, Root{Path: src.base, Scope: src.Scope, Exists: true, display: src.base})
			continue
		}
		dl, err := c.listDisk(ctx)
		if err != nil {
			return nil, err
		}
		skills = append(skills, dl.Skills...)
		for _, d := range dl.Diagnostics {
			if d.Code != diagcode.CatalogTruncated { // maxSkills counts every source: below
				diags = append(diags, d)
			}
		}
		l.Roots = append(l.Roots, dl.Roots...)
		l.candidates = dl.candidates
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	byName := make(map[string]*Skill, len(skills))
	kept := skills[:0:0]
	for _, s := range skills {
		if w, ok := byName[s.Name]; ok {
			diags = append(diags, skill.Diagnostic{Code: diagcode.Shadowed, Severity: skill.SeverityWarning,
				Path: s.Location, Skill: s.Name, Related: w.Location,
				Message: fmt.Sprintf("the skill %q at %s is shadowed by the one at %s, from a source earlier in Options.Sources", s.Name, s.Location, w.Location)})
			continue
		}
		byName[s.Name] = s
		kept = append(kept, s)
	}
	kept, diags = c.enabled(kept, byName, diags)
	lim := limit{max: c.settings.MaxSkills}
	for i, s := range kept {
		if want := lim.take(s, s.Name); s.Listed != want {
			cp := *s // a skill handed out is never changed
			cp.Listed = want
			kept[i] = &cp
		}
	}
	diags = lim.truncated(diags, c.workspace)
	skill.SortDiagnostics(diags)
	l.Skills, l.Diagnostics = kept, diags
	c.snapMu.Lock()
	c.snap = l
	c.snapMu.Unlock()
	return l, nil
}

// enabled applies the enable and disable lists (the configuration's and
// the options') to skills.
func (c *Catalog) enabled(skills []*Skill, byName map[string]*Skill, diags []skill.Diagnostic) ([]*Skill, []skill.Diagnostic) {
	if c.enable == nil && len(c.disable) == 0 {
		return skills, diags
	}
	where := c.workspace
	if c.cfg.Path != "" {
		where = c.cfg.Path
	}
	for _, list := range []struct {
		key   string
		names []string
	}{{"enable", c.enable}, {"disable", c.disable}} {
		for _, n := range list.names {
			if byName[n] == nil {
				diags = append(diags, skill.Diagnostic{Code: codeDisabled, Severity: skill.SeverityWarning, Path: where, Skill: n,
					Message: fmt.Sprintf("%s names the skill %q, which no source holds", list.key, n)})
			}
		}
	}
	var left []string
	out := skills[:0:0]
	for _, s := range skills {
		if (c.enable != nil && !slices.Contains(c.enable, s.Name)) || slices.Contains(c.disable, s.Name) {
			left = append(left, s.Name)
			continue
		}
		out = append(out, s)
	}
	if len(left) > 0 {
		diags = append(diags, skill.Diagnostic{Code: codeDisabled, Severity: skill.SeverityNote, Path: where,
			Message: fmt.Sprintf("the enable and disable lists leave out %s: %s", outfmt.Count(len(left), "skill"), outfmt.Names(left))})
	}
	return out, diags
}
