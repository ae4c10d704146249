package tree

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func hashTree(t *testing.T, dir string) [32]byte {
	h := sha256.New()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		h.Write([]byte(rel))
		if !d.IsDir() {
			b, _ := os.ReadFile(p)
			h.Write(b)
		}
		return nil
	})
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

func TestGenerateIsDeterministic(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100 // three trees of 300 skills each with go test ./...
	}
	a, b := t.TempDir(), t.TempDir()
	sa, err := Generate(a, &Options{N: n, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := Generate(b, &Options{N: n, Seed: 7})
	if sa != sb || hashTree(t, a) != hashTree(t, b) {
		t.Error("the same seed gave different trees")
	}
	if sa.Skills != n || sa.Broken == 0 || sa.GroupedSkills == 0 || sa.BundledFiles == 0 {
		t.Errorf("stats %+v: want broken, grouped and bundled skills", sa)
	}
	avg := sa.SkillBytes / int64(sa.Skills)
	if avg < 1500 || avg > 12000 {
		t.Errorf("average SKILL.md of %d bytes is not realistic", avg)
	}
	c := t.TempDir()
	Generate(c, &Options{N: n, Seed: 8})
	if hashTree(t, a) == hashTree(t, c) {
		t.Error("different seeds gave the same tree")
	}
}
