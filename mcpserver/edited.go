package mcpserver

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/skill"
)

// maxEditedSkills is how many skills a patched snapshot reads again; past
// it, the snapshot is built as before.
const maxEditedSkills = 64

// edit is one skill a patched snapshot serves anew: prev's value and
// the next one (old itself when nothing it serves changed).
type edit struct {
	old, sv *served
}

// buildEdited makes the next snapshot by patching prev, for a listing l
// that the catalog patched from prev's (catalogx.ListEdited): the same
// skills, by name and in the same order, with the same diagnostics. The
// skills whose catalog entry changed or whose folder a changed path of
// hint touches are read again (snapSkill, which rereads only the files
// whose stat changed); every other skill is prev's as it is. The maps,
// the name order and the extension's URI order are prev's with those
// skills replaced, not rebuilt. ok is false, with nothing charged to the
// memory budget, when the snapshot must be built as before: the listing
// is not prev's patched, too many skills changed, or one of them no
// longer reads, changes its server diagnostics or does not fit the
// budget. The error is the context's or the instructions' rendering's.
func (s *Server) buildEdited(ctx context.Context, prev *snapshot, l *catalog.Listing, hint *reloadHint) (_ *snapshot, ok bool, _ error) {
	idx, ok := editedSkills(prev, l, hint)
	if !ok {
		return nil, false, nil
	}
	budget := &readBudget{mem: &s.mem}
	left := s.opts.MaxServedBytes - prev.bytes
	for _, k := range idx {
		left += prev.byName[l.Skills[k].Name].size()
	}
	budget.left.Store(left)
	built := false
	defer func() {
		if !built {
			s.mem.give(budget.fresh.Load())
			s.mem.dropped(budget.fresh.Load())
		}
	}()
	edits := make([]edit, 0, len(idx))
	for _, k := range idx {
		cs := l.Skills[k]
		old := prev.byName[cs.Name]
		sv, diags, err := s.snapSkill(ctx, cs, old, budget)
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		if err != nil || !reflect.DeepEqual(diags, old.diags) {
			return nil, false, nil
		}
		edits = append(edits, edit{old: old, sv: sv})
	}
	if budget.over.Load() != nil {
		return nil, false, nil
	}
	next := prev.patched(l, edits)
	if err := s.instruct(ctx, next, prev); err != nil {
		return nil, false, err
	}
	next.fresh, built = budget.fresh.Load(), true
	return next, true, nil
}

// editedSkills returns the positions in l.Skills of the skills to read
// again for buildEdited: those whose catalog entry is not prev's at the
// same position and those a changed path touches (touches). ok is false
// when l is not prev's listing patched (another length, another name at
// a position, a skill not served by prev as listed). A skill prev keeps
// from an earlier state (keepUnloadable) stays kept: its file lost
// precedence or failed, which only an edit of it (that the catalog does
// not patch) or a folder change can alter. One pass over the skills,
// comparing pointers and path prefixes.
func editedSkills(prev *snapshot, l *catalog.Listing, hint *reloadHint) (idx []int, ok bool) {
	if prev == nil || prev.listing == nil || prev.toolListing == nil || len(prev.listing.Skills) != len(l.Skills) {
		return nil, false
	}
	was := prev.listing.Skills
	for k, cs := range l.Skills {
		if cs != was[k] {
			if cs.Name != was[k].Name {
				return nil, false
			}
		} else if !slices.ContainsFunc(hint.paths, func(p string) bool { return touches(p, cs) }) {
			continue
		}
		if old := prev.byName[cs.Name]; old == nil || old.cat != was[k] || len(idx) == maxEditedSkills {
			return nil, false
		}
		idx = append(idx, k)
	}
	return idx, true
}

// size is the bytes of sv's files, as the snapshot counts them.
func (sv *served) size() int64 {
	var n int64
	for _, f := range sv.files {
		n += f.size
	}
	return n
}

// patched returns a copy of sn, for listing l, with each edit's old skill
// replaced by its new one: in the name order (by binary search), the maps
// by name and URI (copied, then changed; shared when there is no edit),
// the extension's entries (by URI) and the tool listing, where old's
// catalog entry stood. The
// diagnostics are sn's, less the instructions' (instruct adds them again).
// The caller sets the instructions.
func (sn *snapshot) patched(l *catalog.Listing, edits []edit) *snapshot {
	next := &snapshot{listing: l, skills: sn.skills, byName: sn.byName, files: sn.files, entries: sn.entries,
		tooLarge: sn.tooLarge, diags: slices.Clip(sn.diags), bytes: sn.bytes, edits: edits}
	if len(edits) > 0 {
		// Shared while nothing changes: no snapshot writes its maps once
		// built.
		next.skills, next.entries = slices.Clone(sn.skills), slices.Clone(sn.entries)
		next.byName, next.files = maps.Clone(sn.byName), maps.Clone(sn.files)
	}
	if sn.blockDiag != nil {
		next.diags = slices.Clip(next.diags[:len(next.diags)-1]) // layers added it last
	}
	tl := *l
	tl.Skills = slices.Clone(sn.toolListing.Skills)
	next.toolListing = &tl
	for _, e := range edits {
		old, sv := e.old, e.sv
		if i, found := slices.BinarySearchFunc(next.skills, old.name, func(x *served, name string) int { return strings.Compare(x.name, name) }); found {
			next.skills[i] = sv
		}
		next.byName[sv.name] = sv
		for _, f := range old.files {
			delete(next.files, f.uri)
			next.bytes -= f.size
		}
		for _, f := range sv.files {
			next.files[f.uri] = f
			next.bytes += f.size
		}
		next.entries = patchEntries(next.entries, old, sv)
		if j := slices.Index(tl.Skills, old.cat); j >= 0 {
			tl.Skills[j] = sv.cat
		}
	}
	return next
}

// patchEntries returns entries (sorted by URI) with old's place taken by
// sv: replaced, removed or inserted as each has an extension entry.
func patchEntries(entries []*served, old, sv *served) []*served {
	i, found := slices.BinarySearchFunc(entries, old.uri, func(x *served, uri string) int { return strings.Compare(x.uri, uri) })
	switch {
	case found && sv.entry != nil:
		entries[i] = sv
	case found:
		entries = slices.Delete(entries, i, i+1)
	case sv.entry != nil:
		entries = slices.Insert(entries, i, sv)
	}
	return entries
}

// sameDiags reports whether a and b are one slice: a snapshot patched
// from another has its listing's diagnostics, already logged.
func sameDiags(a, b []skill.Diagnostic) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// applyEdits is apply for a snapshot patched from prev (next.edits): only
// the skills it read again are compared, the names being prev's.
func (s *Server) applyEdits(prev, next *snapshot) (changed []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var gone []string
	for _, e := range next.edits {
		if e.old == e.sv {
			continue
		}
		for _, f := range e.old.files {
			if next.files[f.uri] == nil {
				gone = append(gone, f.uri)
			}
		}
	}
	if len(gone) > 0 {
		s.mcp.RemoveResources(gone...)
	}
	for _, e := range next.edits {
		if e.old == e.sv {
			continue
		}
		for _, f := range e.sv.files {
			old := prev.files[f.uri]
			if old != nil && old.digest == f.digest && sameResource(old.resource, f.resource) {
				continue
			}
			s.mcp.AddResource(f.resource, s.readResource)
			if old != nil {
				changed = append(changed, f.uri)
			}
		}
		switch {
		case e.old.prompt != nil && e.sv.prompt == nil:
			s.mcp.RemovePrompts(e.sv.name) // no longer user-invocable
		case e.sv.prompt != nil && !samePrompt(e.old.prompt, e.sv.prompt):
			s.mcp.AddPrompt(e.sv.prompt, s.getPrompt)
		}
	}
	if next.tool != nil {
		s.mcp.AddTool(next.tool, s.callTool)
	}
	s.snap.Store(next)
	return changed
}

// editCounts is diffCounts for a snapshot patched from another: no skill
// added or removed, and changed those of its edits whose content did.
func editCounts(next *snapshot) (added, removed, changed int) {
	for _, e := range next.edits {
		if e.old != e.sv && e.old.fp != e.sv.fp {
			changed++
		}
	}
	return 0, 0, changed
}
