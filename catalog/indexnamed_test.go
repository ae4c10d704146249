package catalog

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// BenchmarkIndexNamed measures skillet show NAME over a warm persistent
// index, as the command does it: a new catalog reads the index narrowed
// to the name (listNamed) and loads the skill's body. B/op is what it
// allocates (the index's string table, 16 bytes a string, about 3.5
// strings a skill; the stamps a chunk at a time; the kept skill), which
// does not depend on the machine's load. BenchmarkIndexOneSkill is the same command over the whole listing
// (Load).
func BenchmarkIndexNamed(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ws := benchTree(b, n)
			c, l, _ := indexWriter(b, ws)
			name := l.Skills[len(l.Skills)/2].Name
			opts := c.opts
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				c, err := New(ctx, &opts)
				if err != nil {
					b.Fatal(err)
				}
				nl := c.listNamed(ctx, name, nil)
				if nl == nil || len(nl.Skills) != 1 {
					b.Fatal("the index did not answer")
				}
				if _, err := nl.Skills[0].Load(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// mapped writes data to the file p and returns the file mapped as the
// narrowed reads have it (mapIndex), unmapped when tb ends. The readers
// give back the pages they have summed (releaseMapped: madvise
// MADV_DONTNEED), which for a file mapping drops pages the file gives back
// again, but zeroes a heap buffer's (os.ReadFile's, a clone's) whole pages
// from its start when it begins on a page: handed such a buffer, the
// checksum failed and the read answered nothing depending on where the
// allocator put it (with TMPDIR=/dev/shm, the seed index of FuzzIndexNamed
// always).
func mapped(tb testing.TB, p string, data []byte) []byte {
	tb.Helper()
	must(tb, os.WriteFile(p, data, 0o600))
	fh, err := os.Open(p)
	must(tb, err)
	defer fh.Close()
	m, unmap, err := mapIndex(fh, len(data))
	must(tb, err)
	tb.Cleanup(unmap)
	return m
}

// FuzzIndexNamed: no index bytes make the narrowed read (readNamed) panic,
// and what it answers is what the whole decode of the same bytes holds of
// the name; the names read without summing again (readNames, summed) are
// those read summing. The checksum is made right for each input, so that the
// decoder, not the checksum, meets the bytes; the seeds are a real index
// and versions of it with a byte changed.
func FuzzIndexNamed(f *testing.F) {
	ws := f.TempDir()
	writeTree(f, ws, map[string]string{
		".agents/skills/a/SKILL.md":      skillMD("a"),
		".agents/skills/b/SKILL.md":      "---\nname: b\ndescription: Writes release notes.\nmetadata:\n  v: 1\n---\nB\n",
		".agents/skills/c/SKILL.md":      "---\nname: a\ndescription: A second a.\n---\nC\n",
		".agents/skills/B-up/SKILL.md":   "---\nname: B\ndescription: Upper case.\n---\n",
		".agents/skills/broken/SKILL.md": "---\nname: [\n---\n",
	})
	c, _, roots := indexWriter(f, ws)
	file := c.indexFile()
	data, err := os.ReadFile(file)
	must(f, err)
	for _, name := range []string{"a", "b", " B ", "zz"} {
		f.Add(data, name)
		for _, at := range []int{indexHead + 1, len(data) / 3, len(data) / 2, len(data) - indexSumSize - 1} {
			bad := slices.Clone(data)
			bad[at] ^= 0x41
			f.Add(bad, name)
		}
	}
	seed := indexSeed(file)
	enc := encodeRoots(roots)
	if l := c.readNamed(mapped(f, filepath.Join(f.TempDir(), filepath.Base(file)), data), seed, enc, &namedQuery{raw: "b", name: "b"}); l == nil || len(l.Skills) == 0 {
		f.Fatalf("the narrowed read of the seed index for b gave %v, want the skill b", l)
	}
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		if len(data) < indexHead+indexSumSize || len(data) > 1<<20 {
			return
		}
		data = slices.Clone(data)
		end := len(data) - indexSumSize
		crc := crc32.Update(seed, castagnoli(), data[indexHead:end])
		crc = crc32.Update(crc, castagnoli(), data[:indexHead])
		binary.LittleEndian.PutUint32(data[end:], crc)
		q := &namedQuery{raw: name, name: strings.TrimSpace(name)}
		p := filepath.Join(t.TempDir(), filepath.Base(file))
		md := mapped(t, p, data)
		got := c.readNamed(md, seed, enc, q)
		// The names read again from a mapping whose sum was found right
		// (listNamedQ after readNamed) are the names read summing it.
		l1, n1 := c.readNames(md, seed, false, enc, nil)
		l2, n2 := c.readNames(md, seed, true, enc, nil)
		if (l1 == nil) != (l2 == nil) || !cmp.Equal(n1, n2) || l1 != nil && !cmp.Equal(l1.Diagnostics, l2.Diagnostics) {
			t.Fatalf("the names read without summing again differ: %v %v, want %v %v", l2, n2, l1, n1)
		}
		if got == nil {
			return
		}
		st, err := readIndex(indexCache(filepath.Dir(p)), p)
		if err != nil {
			t.Fatalf("the narrowed read answered %d skills; the whole read of the same bytes fails: %v", len(got.Skills), err)
		}
		full := st.rest.finish(nil)
		if full == nil {
			t.Fatalf("the narrowed read answered %d skills; the whole decode of the same bytes gives none", len(got.Skills))
		}
		var want []string
		for _, s := range full.Skills {
			if q.wants(s.Name) {
				want = append(want, s.Name+" "+s.Location+" "+s.Description)
			}
		}
		var have []string
		for _, s := range got.Skills {
			have = append(have, s.Name+" "+s.Location+" "+s.Description)
		}
		if !slices.Equal(have, want) {
			t.Fatalf("the narrowed read of %q gives %q; the whole decode holds %q", name, have, want)
		}
	})
}
