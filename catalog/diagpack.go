package catalog

import (
	"encoding/binary"
	"slices"
	"unsafe"

	"github.com/skillet-go/skillet/skill"
)

// diagPack holds the diagnostics of an Each until the listing's end, when
// they are sorted and written after every skill: each packed into blocks
// of bytes (its texts and numbers one after the other, the code and
// severity as a number in a small table), not as a 144-byte
// skill.Diagnostic with texts of their own. At 100,000 skills of
// internal/benchtree (30,258 diagnostics) they were about 8 MB of small
// objects spread over the heap (the slice, each message, each name
// cloned, and the path bytes of the walk's entries they kept alive).
// A diagnostic with fixes (none the catalog makes) is kept whole.
type diagPack struct {
	blocks [][]byte
	kinds  []diagKind         // the codes and severities met, by number
	whole  []skill.Diagnostic // those with fixes, in order
	n      int                // how many were added
}

// diagKind is a code and severity of a packed diagnostic.
type diagKind struct {
	code skill.Code
	sev  skill.Severity
}

// diagBlock is the size of a block of packed diagnostics.
const diagBlock = 64 << 10

// add packs d after those added before.
func (p *diagPack) add(d skill.Diagnostic) {
	p.n++
	kind := 0
	if d.Fixes != nil {
		p.whole = append(p.whole, d)
	} else {
		kind = p.kind(diagKind{d.Code, d.Severity}) + 1
	}
	need := 5*binary.MaxVarintLen64 + len(d.Path) + len(d.Message) + len(d.Skill) + len(d.Related)
	if len(p.blocks) == 0 || cap(p.blocks[len(p.blocks)-1])-len(p.blocks[len(p.blocks)-1]) < need {
		p.blocks = append(p.blocks, make([]byte, 0, max(diagBlock, need)))
	}
	b := p.blocks[len(p.blocks)-1]
	b = binary.AppendUvarint(b, uint64(kind))
	if kind != 0 {
		b = binary.AppendVarint(b, int64(d.Line))
		b = binary.AppendVarint(b, int64(d.Column))
		for _, s := range [...]string{d.Path, d.Message, d.Skill, d.Related} {
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
	}
	p.blocks[len(p.blocks)-1] = b
}

// kind returns the number of k in p.kinds, adding it when new.
func (p *diagPack) kind(k diagKind) int {
	for i, have := range p.kinds {
		if have == k {
			return i
		}
	}
	p.kinds = append(p.kinds, k)
	return len(p.kinds) - 1
}

// appendTo appends the diagnostics in the order they were added, with
// room for spare more after them (diags grows once: a slice grown by
// doubling at the listing's end took fresh pages from the system, 17 MB
// at 100,000 skills, where the heap had no run of free pages that large).
// Their texts share the blocks' bytes, which are never written again.
func (p *diagPack) appendTo(diags []skill.Diagnostic, spare int) []skill.Diagnostic {
	if p.n == 0 {
		return diags // nil stays nil, as List's
	}
	diags = slices.Grow(diags, p.n+spare)
	whole := p.whole
	for _, b := range p.blocks {
		for len(b) > 0 {
			kind, n := binary.Uvarint(b)
			b = b[n:]
			if kind == 0 {
				diags = append(diags, whole[0])
				whole = whole[1:]
				continue
			}
			k := p.kinds[kind-1]
			d := skill.Diagnostic{Code: k.code, Severity: k.sev}
			line, n := binary.Varint(b)
			b = b[n:]
			col, n := binary.Varint(b)
			b = b[n:]
			d.Line, d.Column = int(line), int(col)
			for _, s := range [...]*string{&d.Path, &d.Message, &d.Skill, &d.Related} {
				l, n := binary.Uvarint(b)
				b = b[n:]
				if l > 0 {
					*s = unsafe.String(&b[0], int(l))
				}
				b = b[l:]
			}
			diags = append(diags, d)
		}
	}
	return diags
}
