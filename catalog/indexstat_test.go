package catalog

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillet-go/skillet/skill"
)

// TestCheckStamps: checkStamps (folders opened and the paths below them
// looked up from there, on Linux) sees every change indexStat sees, for a
// path at any depth, next to a folder whose name sorts between a folder and
// its entries ("g-x" between "g" and "g/...").
func TestCheckStamps(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := []string{"a/SKILL.md", "g/s/SKILL.md", "g/t/SKILL.md", "g-x/u/SKILL.md", "z/SKILL.md"}
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: x\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stampsOf := func() []pathStamp {
		paths := []string{root, filepath.Join(root, "g"), filepath.Join(root, "g-x"), filepath.Join(root, "missing")}
		for _, f := range files {
			paths = append(paths, filepath.Join(root, f))
		}
		var out []pathStamp
		for _, p := range paths {
			out = append(out, indexStat(p))
		}
		slices.SortFunc(out, func(a, b pathStamp) int { return strings.Compare(a.path, b.path) })
		return out
	}
	check := func(st []pathStamp) bool {
		var changed atomic.Bool
		checkStamps(st, st, &changed)
		// And part by part, each part starting below a folder stamped
		// in an earlier one.
		for i := range st {
			checkStamps(st, st[i:i+1], &changed)
		}
		return !changed.Load()
	}
	if st := stampsOf(); !check(st) {
		t.Fatal("an untouched tree is reported changed")
	}
	later := time.Now().Add(time.Hour)
	for _, f := range append(files, "missing") {
		t.Run(f, func(t *testing.T) {
			st := stampsOf()
			p := filepath.Join(root, f)
			if f == "missing" {
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(p)
			} else if err := os.Chtimes(p, later, later); err != nil {
				t.Fatal(err)
			}
			if check(st) {
				t.Errorf("a change of %s is not seen", f)
			}
			if !check(stampsOf()) {
				t.Errorf("after a change of %s, the new stamps are reported changed", f)
			}
		})
	}
	// A stamp recorded with any one field other than the path's now (a
	// file replaced by one of the same size and times, where the system
	// keeps no change time, has another inode; a rewrite within the same
	// second has another mtime in nanoseconds) is a change, for a folder
	// opened for the paths below it as for a file; and so is a present
	// path recorded missing. Caught: any field left out of the comparison,
	// mtime compared to the second, an opened folder's stamp not compared.
	fields := map[string]func(*stamp){
		"size": func(s *stamp) { s.size++ }, "mtime": func(s *stamp) { s.mtime++ },
		"ctime": func(s *stamp) { s.ctime++ }, "ino": func(s *stamp) { s.ino++ }, "dev": func(s *stamp) { s.dev++ },
	}
	for i, ps := range stampsOf() {
		if ps.missing {
			continue
		}
		for name, bump := range fields {
			st := stampsOf()
			bump(&st[i].stamp)
			if check(st) {
				t.Errorf("%s recorded with another %s: not seen", ps.path, name)
			}
		}
		st := stampsOf()
		st[i] = pathStamp{path: ps.path, missing: true}
		if check(st) {
			t.Errorf("%s recorded missing: not seen", ps.path)
		}
	}
}

// TestLazyParsed: a skill read from the index decodes its frontmatter on
// first use, once, from any number of goroutines; Name, Description,
// WhenToUse and Hidden need no decoding; a blob that does not decode
// gives the listing's own fields, not a panic.
func TestLazyParsed(t *testing.T) {
	t.Parallel()
	p := &skill.Skill{Name: "n", Description: "d", WhenToUse: "w", License: "MIT", DisableModelInvocation: true,
		Extra: skill.Map{{Key: "k", Value: []any{"v", int64(1)}, Line: 2, Column: 1}}}
	s := &Skill{Location: "/r/n/SKILL.md"}
	s.setParsed(p)
	l := Listing{Skills: []*Skill{s}}
	var e ienc
	if err := e.listing(&l); err != nil {
		t.Fatal(err)
	}
	decode := func() *Skill {
		d := newDec(string(e.b))
		back := d.listing(nil)
		if d.err != nil || back == nil {
			t.Fatal(d.err)
		}
		return back.Skills[0]
	}
	got := decode()
	if got.lazy == nil || got.Name != "n" || got.Description != "d" || got.WhenToUse != "w" || !got.Hidden() {
		t.Fatalf("listing fields before decoding: %+v", got)
	}
	var wg sync.WaitGroup
	res := make([]*skill.Skill, 4)
	for i := range res {
		wg.Go(func() { res[i] = got.Parsed() })
	}
	wg.Wait()
	for _, r := range res {
		if r != res[0] || !reflect.DeepEqual(r, p) {
			t.Fatalf("Parsed = %+v, want %+v, one value for all", r, p)
		}
	}
	bad := decode()
	bad.lazy.data = "\xff"
	if q := bad.Parsed(); q == nil || q.Name != "n" || q.Description != "d" || !q.Hidden() || q.License != "" {
		t.Fatalf("a blob that does not decode gives %+v", q)
	}
}
