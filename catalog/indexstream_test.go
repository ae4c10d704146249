package catalog

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/skillet-go/skillet/skill"
)

// streamCheck requires that a narrowed read of a fresh catalog with no
// index (listNamed, which then lists as Each does and writes the index
// meanwhile: indexstream.go) gives what a cold listing holds of name, and
// that the index it wrote answers List with the cold listing (candidates
// and the skills only they point at included), and, with reads, the
// narrowed, search and brief reads as the cold listing. It returns the
// index file's bytes.
func streamCheck(t *testing.T, e testEnv, o Options, name string, reads bool) []byte {
	t.Helper()
	_, cold := e.list(t, &o)
	idx := filepath.Join(t.TempDir(), "idx")
	newc := func() *Catalog {
		cp := o
		cp.index = idx
		c, err := New(context.Background(), e.opts(&cp))
		must(t, err)
		return c
	}
	keep := func(d *skill.Diagnostic) bool {
		return strings.EqualFold(d.Skill, name) || d.Severity == skill.SeverityError
	}
	got := newc().listNamed(context.Background(), name, keep)
	want := namedOf(cold, name, keep)
	if len(want.Skills) == 0 {
		if got != nil {
			t.Fatalf("%q: the walk answered for a name the listing does not hold", name)
		}
	} else if diff := diffListing(want, got); diff != "" {
		t.Fatalf("%q: the walk's narrowed listing differs from a cold one's (-cold +walk):\n%s", name, diff)
	}
	files, err := filepath.Glob(filepath.Join(idx, "*.idx"))
	must(t, err)
	if len(files) != 1 {
		t.Fatalf("the walk wrote %d index files, want 1 (%v)", len(files), files)
	}
	data, err := os.ReadFile(files[0])
	must(t, err)
	c := newc()
	l, err := c.List(context.Background())
	must(t, err)
	if c.idx == nil || c.idx.listing != l {
		t.Fatal("the index the walk wrote did not answer List")
	}
	if diff := diffListing(cold, materialize(l)); diff != "" {
		t.Fatalf("the listing of the index the walk wrote differs from a cold one (-cold +index):\n%s", diff)
	}
	if !reads {
		return data
	}
	names := fixtureNames(cold)
	checkNamed(t, newc, cold, names, true)
	checkSearched(t, newc, cold, namedQueries(names), true)
	checkBrief(t, newc, cold, true)
	checkNameList(t, newc, cold)
	checkPrefixed(t, newc, cold, name[:min(2, len(name))])
	return data
}

// listIndexBytes is the index List writes for e and o: the bytes but the
// checksum, which begins with the file's name (a hash of the index
// folder too).
func listIndexBytes(t *testing.T, e testEnv, o Options) []byte {
	t.Helper()
	o.index = filepath.Join(t.TempDir(), "idx")
	e.list(t, &o)
	files, err := filepath.Glob(filepath.Join(o.index, "*.idx"))
	must(t, err)
	if len(files) != 1 {
		t.Fatalf("List wrote %d index files, want 1", len(files))
	}
	data, err := os.ReadFile(files[0])
	must(t, err)
	return data[:len(data)-indexSumSize]
}

// TestIndexStreamSameListing holds the index written while Each lists to
// a cold listing on TestIndexSameListing's workspace (indexFixture), with
// and without maxSkills cutting the listing, and byte for byte to the
// index List writes (but the checksum).
func TestIndexStreamSameListing(t *testing.T) {
	t.Parallel()
	e := indexFixture(t)
	// The narrowed reads of the written index (checkNamed, checkSearched,
	// checkBrief) are checked after the first name of maxSkills 0 and 1:
	// every name's index is held byte for byte (but the checksum) to
	// List's, so the same reads of it give the same answers; checking them
	// for all five names took 85-132 s of the full run at load 15. At
	// maxSkills 50 that index is the one TestIndexSameListing reads (List's
	// of the same workspace and options, without ignored files), whose
	// reads it asks: 1.0 s of this test's 3.8 s CPU.
	//
	// -short checks every other name of each maxSkills, by a stride that
	// starts one name further at each (so every name is checked, at
	// some cap, and caps 0 and 1 with the reads): 9 of the 15 checks.
	for m, maxSkills := range []int{0, 50, 1} {
		t.Run(fmt.Sprint("maxSkills=", maxSkills), func(t *testing.T) {
			o := Options{MaxSkills: maxSkills}
			for i, name := range []string{"colon", "zeta", "linked", "hidden", "nonesuch"} {
				if testing.Short() && i > 0 && (i+m)%2 == 1 {
					continue
				}
				streamed := streamCheck(t, e, o, name, i == 0 && maxSkills != 50)
				// The index folder is part of the key: the file names
				// and so the checksums differ, nothing else.
				if want := listIndexBytes(t, e, o); !bytes.Equal(streamed[:len(streamed)-indexSumSize], want) {
					at := 0
					for at < len(want) && at < len(streamed) && streamed[at] == want[at] {
						at++
					}
					t.Fatalf("%q: the index written while listing is not List's (%d bytes against %d; first difference at %d: %q against %q)",
						name, len(streamed), len(want)+indexSumSize, at, streamed[max(at-40, 0):min(at+40, len(want))], want[max(at-40, 0):min(at+40, len(want))])
				}
			}
		})
	}
}

// TestIndexStreamDifferential holds the index written while Each lists to
// a cold listing on random trees after random edits (TestIndexOneSkillDifferential's:
// skills added, removed, renamed, copied into another root, names edited
// in place, so clashes, shadowing and skills whose name is not their
// folder's).
func TestIndexStreamDifferential(t *testing.T) {
	t.Parallel()
	seeds, edits := 6, 6
	if testing.Short() {
		seeds, edits = 2, 4
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			d := &diffTree{t: t, rng: rand.New(rand.NewPCG(seed, 2)), base: filepath.Dir(e.ws),
				old: time.Now().Add(-time.Hour).Truncate(time.Second)}
			d.grow()
			age(t, e.ws, e.home)
			for k := range edits {
				d.edit()
				d.old = d.old.Add(time.Duration(k+1) * time.Second)
				streamCheck(t, e, Options{MaxSkills: 3 * (k % 2)}, randOf(d.rng, diffNames), true)
			}
		})
	}
}

// TestIndexStreamFresh: a skill file modified within the racy window of
// the walk is too fresh to stamp, so the walk writes no index, and still
// answers.
func TestIndexStreamFresh(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/a/SKILL.md": skillMD("a"), "skills/b/SKILL.md": skillMD("b")})
	age(t, e.ws, e.home)
	// A minute ahead: within the racy window of the walk however long
	// the test waits for a core.
	ahead := time.Now().Add(time.Minute)
	p := filepath.Join(e.ws, "skills", "b", "SKILL.md")
	must(t, os.Chtimes(p, ahead, ahead))
	idx := filepath.Join(t.TempDir(), "idx")
	c, err := New(context.Background(), e.opts(&Options{index: idx}))
	must(t, err)
	l := c.listNamed(context.Background(), "a", nil)
	if l == nil || len(l.Skills) != 1 || l.Skills[0].Name != "a" {
		t.Fatalf("the walk did not answer for a: %+v", l)
	}
	if files, _ := filepath.Glob(filepath.Join(idx, "*")); len(files) != 0 {
		t.Fatalf("an index was written with a stamp too fresh to trust: %v", files)
	}
}

// BenchmarkIndexStream measures the first run of show NAME on a tree of
// n generated skills with no index (listNamedWalk: list as Each does and
// write the index meanwhile): the time and bytes allocated per skill, the
// most live heap it holds beyond the heap before it (held-B/skill: sampled
// after a collection every 100 skills handed out and where its end holds
// the most, indexStreamSample), and the index's bytes per skill. List's
// first run held about 2,700 bytes a skill (the listing and the caches
// kept to be encoded); Each alone holds about 300
// (BenchmarkEachCold).
func BenchmarkIndexStream(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ws := benchTree(b, n)
			age(b, ws)
			ctx := context.Background()
			newc := func() (*Catalog, string) {
				idx := b.TempDir()
				c, err := New(ctx, &Options{Workspace: ws, NoUser: true, NoConfigFile: true, index: idx})
				must(b, err)
				return c, idx
			}
			name := "nonesuch"
			b.ReportAllocs()
			for b.Loop() {
				c, _ := newc()
				c.listNamedWalk(ctx, &namedQuery{raw: name, name: name})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/skill")
			c, idx := newc()
			var before runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			held := 0.0
			sample := func() {
				var m runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&m)
				held = max(held, float64(m.HeapAlloc)-float64(before.HeapAlloc))
			}
			indexStreamSample = sample
			defer func() { indexStreamSample = nil }()
			k := 0
			c.mu.Lock()
			_, ok, err := c.eachIndexed(ctx, func(*Listing, *Skill) error {
				if k++; k%100 == 0 {
					sample()
				}
				return nil
			}, nil)
			c.mu.Unlock()
			if !ok || err != nil {
				b.Fatalf("the walk did not write the index: %v, %v", ok, err)
			}
			files, _ := filepath.Glob(filepath.Join(idx, "*.idx"))
			if len(files) != 1 {
				b.Fatalf("%d index files", len(files))
			}
			fi, err := os.Stat(files[0])
			must(b, err)
			b.ReportMetric(held/float64(n), "held-B/skill")
			b.ReportMetric(float64(fi.Size())/float64(n), "index-B/skill")
		})
	}
}
