package catalog

import (
	"bytes"
	"encoding/gob"
	"testing"

	"github.com/skillet-go/skillet/skill"
)

// The persistent index's hand-kept codec (indexcodec.go) against a
// generic one, for issue 22's question of whether the listing types need
// a codec of their own (docs/ARCHITECTURE.md, the second path's table).
// encoding/gob, the standard library's self-describing binary codec,
// writes exported fields only, so it is given a mirror of the listing's
// exported data: every field of Skill, its parsed frontmatter
// (skill.Skill) and the listing's roots and diagnostics. That is less
// than the index holds (the candidates, each skill's boundary, the search
// section), so its figures are a lower bound for a generic index.

// gobSkill is the exported part of a Skill and its frontmatter.
type gobSkill struct {
	Skill
	Parsed *skill.Skill
}

// gobListing is the exported part of a Listing.
type gobListing struct {
	Workspace   string
	Roots       []Root
	Skills      []gobSkill
	Diagnostics []skill.Diagnostic
}

func toGob(l *Listing) *gobListing {
	g := &gobListing{Workspace: l.Workspace, Roots: l.Roots, Diagnostics: l.Diagnostics}
	for _, s := range l.Skills {
		p := s.parsed
		if p == nil && s.lazy != nil {
			p = s.lazy.get()
		}
		g.Skills = append(g.Skills, gobSkill{Skill: Skill{Name: s.Name, Description: s.Description,
			WhenToUse: s.WhenToUse, Location: s.Location, BaseDir: s.BaseDir, Root: s.Root, Scope: s.Scope,
			Folder: s.Folder, Flat: s.Flat, Plugin: s.Plugin, Bytes: s.Bytes, Truncated: s.Truncated,
			Listed: s.Listed}, Parsed: p})
	}
	return g
}

func init() {
	// The frontmatter's values are interfaces: gob must know the
	// concrete types it may meet (indexcodec.go's closed set).
	gob.Register(skill.Map{})
	gob.Register([]any{})
}

// BenchmarkIndexCodec decodes the listing of a 10,000-skill tree with the
// index's codec (the frontmatter left lazy, as a one-skill command reads
// it, and all of it) and with gob, and reports each encoding's bytes per
// skill (B/skill).
func BenchmarkIndexCodec(b *testing.B) {
	const n = 10000
	c, l, _ := indexWriter(b, benchTree(b, n))
	var e ienc
	if err := e.listing(l); err != nil {
		b.Fatal(err)
	}
	hand := string(e.b)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(toGob(l)); err != nil {
		b.Fatal(err)
	}
	gobBytes := buf.Bytes()
	b.Run("hand/lazy", func(b *testing.B) {
		for b.Loop() {
			if d := newDec(hand); d.listing(c) == nil || d.err != nil {
				b.Fatal("the listing did not decode")
			}
		}
		b.ReportMetric(float64(len(hand))/n, "B/skill")
	})
	b.Run("hand/all", func(b *testing.B) {
		for b.Loop() {
			d := newDec(hand)
			if materialize(d.listing(c)) == nil || d.err != nil {
				b.Fatal("the listing did not decode")
			}
		}
		b.ReportMetric(float64(len(hand))/n, "B/skill")
	})
	b.Run("gob", func(b *testing.B) {
		for b.Loop() {
			var g gobListing
			if err := gob.NewDecoder(bytes.NewReader(gobBytes)).Decode(&g); err != nil || len(g.Skills) != len(l.Skills) {
				b.Fatal("the listing did not decode:", err)
			}
		}
		b.ReportMetric(float64(len(gobBytes))/n, "B/skill")
	})
}
