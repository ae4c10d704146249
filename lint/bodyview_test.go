package lint

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// bodyViewCases are files whose bodies bodyView must cut as skill.Parse.
var bodyViewCases = []string{
	"",
	"---\nname: x\ndescription: d\n---\n",
	"---\nname: x\ndescription: d\n---\n\n\n# Body\n\ntext  \n\n \t\n",
	"---\r\nname: x\r\ndescription: d\r\n---\r\n\r\n# Body\r\nline\rnext\r\n\r\n",
	"# No frontmatter\n\nJust Markdown.\n",
	"\ufeff---\nname: x\ndescription: d\n---\nBody\n",
	"---\nname: x\ndescription: d\n",
	"---\nname: [unclosed\n---\nBody\n",
	"---\nname: x\ndescription: d\n---\n \t \n\r\nBody\r",
}

// checkBodyView requires bodyView(src, BodyOffset) to be the Body that
// skill.Parse gives src.
func checkBodyView(t *testing.T, name string, src []byte) {
	t.Helper()
	po := skill.Options{Path: "skills/x/SKILL.md"}
	want, _ := skill.Parse(src, &po)
	po.SkipBody = true
	skipped, _ := skill.Parse(src, &po)
	if want == nil || skipped == nil {
		if (want == nil) != (skipped == nil) {
			t.Fatalf("%s: SkipBody changes whether it parses", name)
		}
		return
	}
	if got := bodyView(src, skipped.BodyOffset); got != want.Body {
		t.Errorf("%s: bodyView gives %q, skill.Parse %q", name, got, want.Body)
	}
}

// TestBodyView: the body lint's early checks cut from the bytes read is
// the one skill.Parse gives, for edge cases, every published skill file
// and a generated tree.
func TestBodyView(t *testing.T) {
	t.Parallel()
	for i, c := range bodyViewCases {
		checkBodyView(t, "case "+string(rune('0'+i)), []byte(c))
	}
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 60, Seed: 9, BrokenPercent: 30}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range []string{testcorpus.Dir(t), gen} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".md") {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			checkBodyView(t, p, src)
			n++
			return nil
		})
	}
	if n < 500 {
		t.Errorf("only %d files compared", n)
	}
}

// FuzzBodyView holds bodyView to skill.Parse's Body on any file.
func FuzzBodyView(f *testing.F) {
	for _, c := range bodyViewCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkBodyView(t, "input", src) })
}

// TestChecksKeepNoBody: the findings of a skill file's checks keep no
// part of the body they read (the early checks read it in the listing
// reader's bytes, which the next file overwrites): checked on a copy of
// each body that is then overwritten, they are what the checks find on
// the body itself. The corpus and a generated tree.
func TestChecksKeepNoBody(t *testing.T) {
	t.Parallel()
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 60, Seed: 9, BrokenPercent: 30}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range []*catalog.Options{
		{Workspace: gen, NoUser: true, NoConfigFile: true},
		{Workspace: t.TempDir(), NoUser: true, NoConfigFile: true, ExtraPaths: []string{testcorpus.Dir(t)}},
	} {
		catx.KeepBodies(o)
		c, err := catalog.New(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range l.Skills {
			want := runChecks(about(s))
			buf := []byte(s.Parsed().Body)
			sub := about(s)
			if len(buf) > 0 {
				sub.body = unsafe.String(&buf[0], len(buf))
			}
			got := runChecks(sub)
			copy(buf, bytes.Repeat([]byte{'#'}, len(buf)))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: findings changed with the body's bytes (-want +got):\n%s", s.Location, diff)
			}
			n += len(want)
		}
	}
	if n < 100 {
		t.Errorf("only %d findings compared", n)
	}
}
