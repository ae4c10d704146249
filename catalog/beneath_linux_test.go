//go:build linux && (amd64 || arm64)

package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillet-go/skillet/skill"
)

// TestReadBeneath checks the openat2 reader: it reads a file below the root
// exactly as readSkillFile does, and declines (so the general path decides)
// a path through a symlink that leaves the root, a symlinked file
// and a missing file.
func TestReadBeneath(t *testing.T) {
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
	got, err, ok := readBeneath(d, z("a/"+SkillFile), filepath.Join(root, "a", SkillFile), 1000)
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
	short, err, ok := readBeneath(d, z("a/"+SkillFile), filepath.Join(root, "a", SkillFile), 10)
	if !ok || err != nil || !short.truncated || len(short.data) != 10 {
		t.Errorf("a 10-byte limit: ok %v err %v truncated %v %d bytes", ok, err, short.truncated, len(short.data))
	}
	short.release()
	for _, rel := range []string{"b/" + SkillFile, "c", "missing/" + SkillFile, "../" + filepath.Base(outside) + "/b/" + SkillFile} {
		if _, err, ok := readBeneath(d, z(rel), filepath.Join(root, rel), 1000); ok {
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
	if len(n1) != 1 || n1[0] != "in" || len(c1) != 1 || c1[0] != skill.CodePathEscape {
		t.Errorf("with openat2: %v %v, want [in] [%s]", n1, c1, skill.CodePathEscape)
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
