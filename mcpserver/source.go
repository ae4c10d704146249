package mcpserver

import (
	"context"
	"fmt"
	"path/filepath"
	"unicode/utf8"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

// snapSource answers the load tool from the served snapshot, so a skill's
// instructions and files through the tool are the very bytes resources/read
// serves: a SKILL.md kept from its last good version is loadable, and an
// edit not yet reloaded is not half visible (internal/agentx.Source).
type snapSource struct{ s *Server }

func (src snapSource) served(ctx context.Context, cs *catalog.Skill) (*served, error) {
	sv := src.s.current(ctx).byName[cs.Name]
	if sv == nil {
		return nil, fmt.Errorf("%w: %q is not served", catalog.ErrNotFound, cs.Name)
	}
	return sv, nil
}

// Load returns the body of the served SKILL.md, cut at maxSkillBytes as
// the catalog cuts it (docs/discovery.md#limits).
func (src snapSource) Load(ctx context.Context, cs *catalog.Skill) (*catalog.Loaded, error) {
	sv, err := src.served(ctx, cs)
	if err != nil {
		return nil, err
	}
	if _, built := catx.Sourced(cs); built {
		// The body the program gave, never cut, as catalog.Skill.Load
		// gives it.
		return &catalog.Loaded{Skill: cs, Body: sv.parsed.Body, Bytes: len(sv.parsed.Body)}, nil
	}
	data := sv.byRel[skillFile].bytes()
	limit := src.s.cat.Settings().MaxSkillBytes
	if len(data) <= limit {
		return &catalog.Loaded{Skill: cs, Body: sv.parsed.Body, Bytes: len(data)}, nil
	}
	// Cut at a rune boundary: drop a trailing partial UTF-8 sequence.
	cut := data[:limit]
	for i := len(cut) - 1; i >= 0 && i >= len(cut)-utf8.UTFMax; i-- {
		if utf8.RuneStart(cut[i]) {
			if !utf8.FullRune(cut[i:]) {
				cut = cut[:i]
			}
			break
		}
	}
	parsed, _ := skill.Parse(cut, &skill.Options{Path: cs.Location, Flat: cs.Flat, Mode: src.s.cat.Settings().Mode,
		MaxDescriptionChars: -1, Truncated: true, KeepRejected: true})
	if parsed == nil {
		return nil, fmt.Errorf("skill %q: its first %d bytes do not parse", cs.Name, limit)
	}
	return &catalog.Loaded{Skill: cs, Body: parsed.Body, Truncated: true, Bytes: len(cut)}, nil
}

// Files lists the served files of the skill.
func (src snapSource) Files(ctx context.Context, cs *catalog.Skill) ([]catalog.File, bool, error) {
	sv, err := src.served(ctx, cs)
	if err != nil {
		return nil, false, err
	}
	out := make([]catalog.File, len(sv.files))
	for i, f := range sv.files {
		out[i] = catalog.File{Path: f.rel, Size: f.size}
	}
	return out, sv.incomplete != "", nil
}

// ReadFile returns a served file's bytes.
func (src snapSource) ReadFile(ctx context.Context, cs *catalog.Skill, rel string, limit int64) ([]byte, error) {
	sv, err := src.served(ctx, cs)
	if err != nil {
		return nil, err
	}
	clean, err := fsx.CleanRel(rel, catalog.ErrOutside, catalog.ErrFileNotFound)
	if err != nil {
		return nil, err
	}
	if cs.Flat && clean == filepath.Base(cs.Location) {
		clean = skillFile
	}
	f := sv.byRel[clean]
	if why, ok := sv.tooLarge[clean]; ok && f == nil {
		return nil, fmt.Errorf("%w: %q is not served: %s", catalog.ErrTooLarge, rel, why)
	}
	if f == nil {
		if _, dir := sv.dirs[clean]; dir || clean == "." {
			return nil, fmt.Errorf("%w: %q is a folder", catalog.ErrNotFile, rel)
		}
		return nil, fmt.Errorf("%w: %q", catalog.ErrFileNotFound, rel)
	}
	if limit > 0 && f.size > limit {
		return nil, fmt.Errorf("%w: %q is %d bytes, over the %d-byte limit", catalog.ErrTooLarge, rel, f.size, limit)
	}
	return f.bytes(), nil
}
