//go:build unix

package catalog

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// TestIndexUntrusted: an index whose folder or file another user owns, or
// whose group or others may write, is neither read nor written, and the
// listing says so in one index-untrusted warning naming the folder or file;
// the listing is the walk's. Each case starts from an index that answers
// (a hit), so a miss is the check's doing. Changing the owner needs root
// (chown to another uid, 65534); those cases skip otherwise.
func TestIndexUntrusted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/a/SKILL.md": skillMD("a"), "skills/b/SKILL.md": skillMD("b")})
	age(t, e.ws)
	const other = 65534
	for _, tt := range []struct {
		name   string
		root   bool
		spoil  func(dir, file string) error
		onFile bool // the warning names the file, else the folder
		want   string
	}{
		{name: "folder writable by its group", spoil: func(dir, _ string) error { return os.Chmod(dir, 0o770) }, want: "writable by its group or others (mode 0770)"},
		{name: "folder writable by others", spoil: func(dir, _ string) error { return os.Chmod(dir, 0o703) }, want: "(mode 0703)"},
		{name: "file writable by its group", spoil: func(_, file string) error { return os.Chmod(file, 0o620) }, onFile: true, want: "index file is writable by its group or others (mode 0620)"},
		{name: "file writable by others", spoil: func(_, file string) error { return os.Chmod(file, 0o606) }, onFile: true, want: "(mode 0606)"},
		{name: "folder of another owner", root: true, spoil: func(dir, _ string) error { return os.Chown(dir, other, other) }, want: "index folder is owned by uid 65534"},
		{name: "file of another owner", root: true, spoil: func(_, file string) error { return os.Chown(file, other, other) }, onFile: true, want: "index file is owned by uid 65534"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.root && os.Geteuid() != 0 {
				t.Skip("changing a file's owner needs root")
			}
			idx := filepath.Join(t.TempDir(), "index")
			indexed(t, e, idx, &Options{NoUser: true})
			if _, _, hit := indexed(t, e, idx, &Options{NoUser: true}); !hit {
				t.Fatal("the index did not answer before it was spoiled")
			}
			files, _ := filepath.Glob(filepath.Join(idx, "*.idx"))
			if len(files) != 1 {
				t.Fatalf("index files %v, want 1", files)
			}
			before, err := os.Stat(files[0])
			must(t, err)
			must(t, tt.spoil(idx, files[0]))
			// show's narrowed read neither answers nor writes the index
			// again (indexStream): it leaves it to List.
			nc, err := New(context.Background(), e.opts(&Options{NoUser: true, index: idx}))
			must(t, err)
			if nc.listNamed(context.Background(), "a", nil) != nil {
				t.Error("the narrowed read answered with an untrusted index")
			}
			c, l, hit := indexed(t, e, idx, &Options{NoUser: true})
			if hit || (c.idx != nil && c.idx.listing != nil) {
				t.Error("the untrusted index answered")
			}
			if got := names(l); !slices.Equal(got, []string{"a", "b"}) {
				t.Errorf("skills %v, want a and b", got)
			}
			var warns []skill.Diagnostic
			for _, d := range l.Diagnostics {
				if d.Code == diagcode.IndexUntrusted {
					warns = append(warns, d)
				}
			}
			wantPath := idx
			if tt.onFile {
				wantPath = files[0]
			}
			if len(warns) != 1 || warns[0].Path != wantPath || !strings.Contains(warns[0].Message, tt.want) ||
				strings.Contains(warns[0].Message, "\n") || warns[0].Severity != skill.SeverityWarning {
				t.Errorf("warnings %v, want one on %s containing %q", warns, wantPath, tt.want)
			}
			// Nothing was written over it.
			after, err := os.Stat(files[0])
			must(t, err)
			if !after.ModTime().Equal(before.ModTime()) || !os.SameFile(before, after) {
				t.Error("the untrusted index was rewritten")
			}
		})
	}
	// A folder that is untrusted from the start gets no index written.
	idx := filepath.Join(t.TempDir(), "index")
	must(t, os.Mkdir(idx, 0o777))
	must(t, os.Chmod(idx, 0o777))
	indexed(t, e, idx, &Options{NoUser: true})
	if files, _ := filepath.Glob(filepath.Join(idx, "*")); len(files) != 0 {
		t.Errorf("files written into a folder others may write: %v", files)
	}
}
