package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/internal/profile"
)

// TestProjectDirs checks the folders a profile's walk-up reads from a
// working folder: every roots.walkUp and roots.noGit mode, a .git folder
// and a .git file (roots.gitMarker), and the home folder bounding "home".
func TestProjectDirs(t *testing.T) {
	t.Parallel()
	// top/home/repo/a/b, with .git at repo (a folder) or a .git file at a.
	tests := []struct {
		name        string
		walkUp      string
		noGit       string
		marker      string
		gitDir      string // folder holding a .git folder ("" none)
		gitFile     string // folder holding a .git file ("" none)
		cwd         string
		wantUpTo    string // the farthest folder read, relative to top; "/" for the file system root
		wantOnlyCwd bool
	}{
		{name: "git-root/dir", walkUp: "git-root", noGit: "cwd", gitDir: "home/repo", cwd: "home/repo/a/b", wantUpTo: "home/repo"},
		{name: "git-root/file counts", walkUp: "git-root", noGit: "cwd", gitDir: "home/repo", gitFile: "home/repo/a", cwd: "home/repo/a/b", wantUpTo: "home/repo/a"},
		{name: "git-root/file ignored", walkUp: "git-root", noGit: "cwd", marker: "dir", gitDir: "home/repo", gitFile: "home/repo/a", cwd: "home/repo/a/b", wantUpTo: "home/repo"},
		{name: "cwd only", walkUp: "cwd", noGit: "cwd", gitDir: "home/repo", cwd: "home/repo/a/b", wantOnlyCwd: true},
		{name: "no git, home", walkUp: "git-root", noGit: "home", cwd: "home/repo/a/b", wantUpTo: "home/repo"},
		{name: "no git, home, only a file when dir wanted", walkUp: "git-root", noGit: "home", marker: "dir", gitFile: "home/repo/a", cwd: "home/repo/a/b", wantUpTo: "home/repo"},
		{name: "no git, all", walkUp: "git-root", noGit: "all", cwd: "home/repo/a/b", wantUpTo: "/"},
		{name: "no git, home, outside home", walkUp: "git-root", noGit: "home", cwd: "out/x", wantUpTo: "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			for _, d := range []string{"home/repo/a/b", "out/x"} {
				if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if tt.gitDir != "" {
				os.Mkdir(filepath.Join(top, tt.gitDir, ".git"), 0o755)
			}
			if tt.gitFile != "" {
				os.WriteFile(filepath.Join(top, tt.gitFile, ".git"), []byte("gitdir: elsewhere\n"), 0o644)
			}
			p := &profile.Profile{Roots: profile.Roots{WalkUp: tt.walkUp, NoGit: tt.noGit, GitMarker: tt.marker, NearestFirst: true}}
			cwd := filepath.Join(top, tt.cwd)
			got := projectDirs(nil, p, cwd, filepath.Join(top, "home"))
			var want []string
			for d := cwd; ; d = filepath.Dir(d) {
				want = append(want, d)
				if tt.wantOnlyCwd || (tt.wantUpTo != "/" && d == filepath.Join(top, tt.wantUpTo)) || filepath.Dir(d) == d {
					break
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("projectDirs (-want +got):\n%s", strings.ReplaceAll(diff, top, "TOP"))
			}
		})
	}
}
