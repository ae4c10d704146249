package skill

import (
	"sync"

	"github.com/skillet-go/skillet/internal/yamlx"
)

// fastBuf is the memory of one fast read (the reader of the common
// frontmatter shapes, yamlx.FastBuf.Read: its nodes and pointer lists) and
// the frontmatter decoded from its tree. Nothing a Skill keeps points into
// it (values are strings and copies), so Parse hands it back to fastBufs
// once the file is read.
type fastBuf struct {
	yamlx.FastBuf
	// fm is the frontmatter Parse decodes (decodeFrontmatter).
	fm frontmatter
}

var fastBufs = sync.Pool{New: func() any { return new(fastBuf) }}

// release returns b to the pool. Nothing is cleared: a read writes every
// node and pointer it uses before it reads it, and decodeFrontmatter sets
// fm anew, so what the last file left is never seen again. It only stays
// reachable (its frontmatter text, which its skill holds anyway) until the
// next read overwrites it or a collection drops the pooled buffer; clearing
// it cost every file a pass over its nodes, with write barriers while the
// collector runs.
func (b *fastBuf) release() {
	if b.Oversized() {
		return // an unusually large file: let it go
	}
	fastBufs.Put(b)
}
