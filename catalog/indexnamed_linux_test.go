package catalog

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// TestIndexNamedCutShort: a narrowed read (listNamed) or search
// (searchIndexed) of an index whose bytes are wrong, or whose file is cut
// short while it is mapped (a read past the end faults: SIGBUS), does not
// answer, and the process goes on.
func TestIndexNamedCutShort(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if _, err := tree.Generate(filepath.Join(ws, ".agents", "skills"), &tree.Options{N: 200}); err != nil {
		t.Fatal(err)
	}
	w, l, roots := indexWriter(t, ws)
	name := l.Skills[len(l.Skills)/2].Name
	c, err := New(context.Background(), &w.opts)
	must(t, err)
	file := c.indexFile()
	f, err := os.Open(file)
	must(t, err)
	defer f.Close()
	fi, err := f.Stat()
	must(t, err)
	data, unmap, err := mapIndex(f, int(fi.Size()))
	must(t, err)
	defer unmap()
	q := &namedQuery{raw: name, name: name}
	read := func(data []byte) *Listing { return c.readNamed(data, indexSeed(file), encodeRoots(roots), q) }
	search := func(data []byte) bool {
		_, ok := c.readSearch(data, indexSeed(file), encodeRoots(roots), queryTerms(name), name, 10)
		return ok
	}
	if got := read(data); got == nil || len(got.Skills) != 1 || got.Skills[0].Name != name {
		t.Fatalf("the narrowed read of the index written gave %v, want the skill %s", got, name)
	}
	if !search(data) {
		t.Fatalf("the narrowed search of the index written for %s did not answer", name)
	}
	if l, _ := c.readBrief(data, indexSeed(file), encodeRoots(roots), nil); l == nil {
		t.Fatal("the block's read of the index written did not answer")
	}
	for _, at := range []int{0, indexHead, len(data) / 2, len(data) - 1} {
		bad := slices.Clone(data)
		bad[at] ^= 0x20
		bad = mapped(t, filepath.Join(t.TempDir(), filepath.Base(file)), bad)
		if got := read(bad); got != nil {
			t.Errorf("a byte changed at %d of %d: the narrowed read answered", at, len(data))
		}
		if search(bad) {
			t.Errorf("a byte changed at %d of %d: the narrowed search answered", at, len(data))
		}
		if l, _ := c.readBrief(bad, indexSeed(file), encodeRoots(roots), nil); l != nil {
			t.Errorf("a byte changed at %d of %d: the block's read answered", at, len(data))
		}
	}
	if len(data) < 3*os.Getpagesize() {
		t.Fatalf("the index is %d bytes: too small to be cut short past a page", len(data))
	}
	must(t, os.Truncate(file, int64(os.Getpagesize())))
	if got := read(data); got != nil {
		t.Error("the index was cut short while mapped: the narrowed read answered")
	}
	if search(data) {
		t.Error("the index was cut short while mapped: the narrowed search answered")
	}
	if l, _ := c.readBrief(data, indexSeed(file), encodeRoots(roots), nil); l != nil {
		t.Error("the index was cut short while mapped: the block's read answered")
	}
}
