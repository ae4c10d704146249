//go:build linux

package catalog

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// folderStamps is the stamp of every folder under base (mtime, ctime,
// inode).
func folderStamps(t *testing.T, base string) map[string][3]int64 {
	t.Helper()
	out := map[string][3]int64{}
	err := filepath.WalkDir(base, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.IsDir() {
			return err
		}
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			return err
		}
		out[p] = [3]int64{st.Mtim.Nano(), st.Ctim.Nano(), int64(st.Ino)}
		return nil
	})
	must(t, err)
	return out
}

// TestNameEditMovesNoFolderStamp is why a one-skill check cannot stop at
// the folders on the skill's path and the roots' folders
// (docs/performance.md#persistent-index): a skill file of another folder,
// edited in place to take the name, takes the answer while every folder
// keeps its stamp. Only that file's own stamp says so.
func TestNameEditMovesNoFolderStamp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		".agents/skills/other/SKILL.md": skillMD("other"),
		"skills/tool/SKILL.md":          skillMD("tool"),
	})
	age(t, e.ws, e.home)
	idx := filepath.Join(t.TempDir(), "idx")
	indexed(t, e, idx, nil)
	c, _, hit := indexed(t, e, idx, nil)
	if !hit {
		t.Fatal("the index was not used")
	}
	if a := oneSkill(t, c, "tool"); a.Location != filepath.Join(e.ws, "skills", "tool", "SKILL.md") {
		t.Fatalf("before the edit tool is %s", a.Location)
	}
	before := folderStamps(t, filepath.Dir(e.ws))
	p := filepath.Join(e.ws, ".agents", "skills", "other", "SKILL.md")
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	must(t, err)
	_, err = f.WriteString(skillMD("tool"))
	must(t, err)
	must(t, f.Close())
	if diff := cmp.Diff(before, folderStamps(t, filepath.Dir(e.ws))); diff != "" {
		t.Fatalf("a folder's stamp moved (-before +after):\n%s", diff)
	}
	c, _, hit = indexed(t, e, idx, nil)
	if hit {
		t.Fatal("the index answered after the edit")
	}
	if a := oneSkill(t, c, "tool"); a.Location != p {
		t.Fatalf("after the edit tool is %s, want %s", a.Location, p)
	}
}
