//go:build linux && (amd64 || arm64)

package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestReadBeneath checks the openat2 reader: it reads a file below the root
// exactly as readSkillFile does, and declines (so the general path decides)
// a path through a symlink that leaves the root, a symlinked file
// and a missing file.
func TestReadBeneath(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	mustWrite(t, filepath.Join(root, "a", SkillFile), "---\nname: a\ndescription: d\n---\nbody\n")
	mustWrite(t, filepath.Join(outside, "b", SkillFile), "---\nname: b\ndescription: d\n---\nbody\n")
	if err := os.Symlink(filepath.Join(outside, "b"), filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../a/"+SkillFile, filepath.Join(root, "c")); err != nil {
		t.Fatal(err)
	}
	d := openRootDir(root, func(string) bool { return true })
	if d < 0 {
		if noOpenat2.Load() {
			t.Skip("openat2 is not available here; the general reader is used")
		}
		t.Fatal("openRootDir failed")
	}
	defer d.close()
	z := func(s string) []byte { return append([]byte(s), 0) }
	got, err, ok := readBeneath(d, z("a/"+SkillFile), filepath.Join(root, "a", SkillFile), 1000, stamp{})
	if noOpenat2.Load() {
		t.Skip("openat2 is refused here (seccomp or an old kernel); the general reader is used")
	}
	if !ok || err != nil {
		t.Fatalf("readBeneath a/SKILL.md: ok %v, err %v", ok, err)
	}
	want, werr := readSkillFile(filepath.Join(root, "a", SkillFile), 1000, nil)
	if werr != nil || string(got.data) != string(want.data) || got.stamp != want.stamp || got.size != want.size {
		t.Errorf("readBeneath gave %q %+v, readSkillFile %q %+v (%v)", got.data, got.stamp, want.data, want.stamp, werr)
	}
	got.release()
	want.release()
	short, err, ok := readBeneath(d, z("a/"+SkillFile), filepath.Join(root, "a", SkillFile), 10, stamp{})
	if !ok || err != nil || !short.truncated || len(short.data) != 10 {
		t.Errorf("a 10-byte limit: ok %v err %v truncated %v %d bytes", ok, err, short.truncated, len(short.data))
	}
	short.release()
	for _, rel := range []string{"b/" + SkillFile, "c", "missing/" + SkillFile, "../" + filepath.Base(outside) + "/b/" + SkillFile} {
		if _, err, ok := readBeneath(d, z(rel), filepath.Join(root, rel), 1000, stamp{}); ok {
			t.Errorf("readBeneath %s: read it (err %v); it must leave the file to the general path", rel, err)
		}
	}
}

// TestListWithoutOpenat2 checks that a listing without openat2 (as in a
// container whose seccomp filter refuses it) gives the same skills and
// diagnostics, escapes included.
func TestListWithoutOpenat2(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	skills := filepath.Join(ws, ".agents", "skills")
	mustWrite(t, filepath.Join(skills, "in", SkillFile), "---\nname: in\ndescription: d\n---\nbody\n")
	mustWrite(t, filepath.Join(outside, "out", SkillFile), "---\nname: out\ndescription: d\n---\nbody\n")
	if err := os.Symlink(filepath.Join(outside, "out"), filepath.Join(skills, "out")); err != nil {
		t.Fatal(err)
	}
	list := func() ([]string, []skill.Code) {
		c, err := New(context.Background(), &Options{Workspace: ws, NoUser: true, NoConfigFile: true})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		var codes []skill.Code
		for _, s := range l.Skills {
			names = append(names, s.Name)
		}
		for _, d := range l.Diagnostics {
			codes = append(codes, d.Code)
		}
		return names, codes
	}
	n1, c1 := list()
	was := noOpenat2.Swap(true)
	n2, c2 := list()
	noOpenat2.Store(was)
	if len(n1) != 1 || n1[0] != "in" || len(c1) != 1 || c1[0] != diagcode.PathEscape {
		t.Errorf("with openat2: %v %v, want [in] [%s]", n1, c1, diagcode.PathEscape)
	}
	if len(n1) != len(n2) || len(c1) != len(c2) || (len(n2) > 0 && n1[0] != n2[0]) || (len(c2) > 0 && c1[0] != c2[0]) {
		t.Errorf("without openat2: %v %v, with it %v %v", n2, c2, n1, c1)
	}
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOpenat2Agrees lists the published corpus and a generated tree with
// the skill files read beneath the open root (openat2) and without openat2
// (each opened by its path), and requires every listing, by List and by
// Each, to be the same: the same skills, fields, parsed frontmatter and
// diagnostics. -short lists a
// generated tree of 100 skills (the fewest with broken, grouped and bundled
// ones); go test ./... lists the corpus and a tree of 300.
func TestOpenat2Agrees(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: n, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	type source struct {
		name string
		opts *Options
	}
	sources := []source{{"generated", &Options{Workspace: gen, NoUser: true, NoConfigFile: true}}}
	if !testing.Short() {
		corpus := testcorpus.Dir(t)
		sources = append([]source{{"corpus", &Options{Workspace: t.TempDir(), NoUser: true, NoConfigFile: true, ExtraPaths: testcorpus.Roots(corpus)}}}, sources...)
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			before := openFDs(t)
			want := listOf(t, src.opts)
			checkEach(t, src.opts, want)
			if len(want.Skills) < n/2 {
				t.Fatalf("only %d skills listed", len(want.Skills))
			}
			was := noOpenat2.Swap(true)
			got := listOf(t, src.opts)
			sameListing(t, "no-openat2", got, want)
			checkEach(t, src.opts, want)
			noOpenat2.Store(was)
			if after := openFDs(t); after != before {
				t.Errorf("%d descriptors open before the listings, %d after", before, after)
			}
		})
	}
}

// sameListing requires got to have want's skills (every field) and
// diagnostics.
func sameListing(t *testing.T, mode string, got, want *Listing) {
	t.Helper()
	if len(got.Skills) != len(want.Skills) {
		t.Fatalf("%s: %d skills, want %d", mode, len(got.Skills), len(want.Skills))
	}
	for i, s := range got.Skills {
		w := want.Skills[i]
		if s.Name != w.Name || s.Description != w.Description || s.WhenToUse != w.WhenToUse || s.Location != w.Location ||
			s.BaseDir != w.BaseDir || s.Root != w.Root || s.Flat != w.Flat || s.Bytes != w.Bytes ||
			s.Truncated != w.Truncated || s.Listed != w.Listed || !reflect.DeepEqual(s.Parsed(), w.Parsed()) {
			t.Errorf("%s: skill %d is %+v, want %+v", mode, i, *s, *w)
		}
	}
	if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
		t.Errorf("%s: diagnostics differ:\n got %v\nwant %v", mode, got.Diagnostics, want.Diagnostics)
	}
}

// openFDs counts the process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	return len(ents)
}

// TestEachStoppedClosesFiles stops Each at its first skill (fn fails) while
// the readers have skill files to read past their window: Each returns
// fn's error and no descriptor stays open.
func TestEachStoppedClosesFiles(t *testing.T) {
	ws := benchTree(t, 300) // more than 2*eachWindow skills, shared with TestEachStops
	before := openFDs(t)
	c, err := New(context.Background(), &Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	finishes(t, func() {
		if _, err := c.each(context.Background(), func(*Listing, *Skill) error { return stop }); !errors.Is(err, stop) {
			t.Errorf("Each returned %v, want fn's error", err)
		}
	})
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open before Each, %d after", before, after)
	}
}

// TestListUnderFileLimit lists a generated tree in a child process whose
// RLIMIT_NOFILE is 64: the walk's open folders and each reader's file stay
// within it, so no read fails for want of a descriptor and the listing is
// the one of an unlimited process.
func TestListUnderFileLimit(t *testing.T) {
	if ws := os.Getenv("SKILLET_TEST_NOFILE_TREE"); ws != "" {
		rl := syscall.Rlimit{Cur: 64, Max: 64}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
			t.Fatal(err)
		}
		fmt.Println(listingSummary(t, &Options{Workspace: ws, NoUser: true, NoConfigFile: true}))
		return
	}
	// -short lists 150 skills, go test ./... 400: either is many times the
	// limit.
	n := 400
	if testing.Short() {
		n = 150
	}
	ws := t.TempDir()
	if _, err := tree.Generate(ws, &tree.Options{N: n, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestListUnderFileLimit$")
	cmd.Env = append(os.Environ(), "SKILLET_TEST_NOFILE_TREE="+ws)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	want := listingSummary(t, &Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if got := strings.TrimSuffix(strings.SplitN(string(out), "\nPASS", 2)[0], "\n"); got != want {
		t.Errorf("under a file limit of 64:\n%s\nwant:\n%s", got, want)
	}
}

// listingSummary is every skill (name, description, size) and diagnostic
// (code, path, message) of a List and of an Each of opts, one a line.
func listingSummary(t *testing.T, opts *Options) string {
	t.Helper()
	var b strings.Builder
	l := listOf(t, opts)
	for _, s := range l.Skills {
		fmt.Fprintf(&b, "skill %s %q %d\n", s.Name, s.Description, s.Bytes)
	}
	for _, d := range l.Diagnostics {
		fmt.Fprintf(&b, "diag %s %s %s\n", d.Code, d.Path, d.Message)
	}
	c, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	el, err := c.each(context.Background(), func(_ *Listing, s *Skill) error {
		fmt.Fprintf(&b, "each %s %q %d\n", s.Name, s.Description, s.Bytes)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range el.Diagnostics {
		fmt.Fprintf(&b, "each-diag %s %s %s\n", d.Code, d.Path, d.Message)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
