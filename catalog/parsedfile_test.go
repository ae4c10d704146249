package catalog

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestParsedFileIsParse holds catalogx.Hooks.ParsedFile to skill.Parse: for
// every skill of the published corpus, with and without kept bodies, the
// listing's parse of the file it read (body cut from the bytes when the
// listing kept none) equals a parse of those bytes, diagnostics included;
// a file that changed since the listing read it, or a stat of another file,
// gets none.
func TestParsedFileIsParse(t *testing.T) {
	t.Parallel()
	dir := testcorpus.Dir(t)
	for _, bodies := range []bool{false, true} {
		opts := &Options{Workspace: t.TempDir(), NoUser: true, NoConfigFile: true, ExtraPaths: testcorpus.Roots(dir), bodies: bodies}
		c, err := New(t.Context(), opts)
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Skills) < 100 {
			t.Fatalf("the corpus lists %d skills", len(l.Skills))
		}
		taken := 0
		for _, s := range l.Skills {
			data, err := os.ReadFile(s.Location)
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(s.Location)
			if err != nil {
				t.Fatal(err)
			}
			p, diags, ok := c.parsedFile(s, fi, data)
			if !ok {
				if !s.Truncated {
					t.Errorf("bodies %t: %s: no parse from the listing", bodies, s.Location)
				}
				continue
			}
			taken++
			want, wantDiags := skill.Parse(data, &skill.Options{Path: s.Location, Flat: s.Flat,
				MaxDescriptionChars: c.Settings().MaxDescriptionChars})
			if !reflect.DeepEqual(p, want) {
				t.Errorf("bodies %t: %s: the listing's parse differs from skill.Parse's\n got %+v\nwant %+v", bodies, s.Location, p, want)
			}
			if len(diags)+len(wantDiags) > 0 && !reflect.DeepEqual(diags, wantDiags) {
				t.Errorf("bodies %t: %s: diagnostics %v, want %v", bodies, s.Location, diags, wantDiags)
			}
		}
		if taken == 0 {
			t.Fatalf("bodies %t: no skill's parse taken", bodies)
		}
		s := l.Skills[0]
		other, err := os.Stat(l.Skills[1].Location)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(s.Location)
		if _, _, ok := c.parsedFile(s, other, data); ok {
			t.Errorf("bodies %t: a stat of %s gave the parse of %s", bodies, l.Skills[1].Location, s.Location)
		}
	}
}

// TestParsedFileChanged: once the file is rewritten after the listing read
// it, the listing's parse is not handed out for it.
func TestParsedFileChanged(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{".claude/skills/alpha/SKILL.md": "---\nname: alpha\ndescription: First.\n---\nBody.\n"})
	path := filepath.Join(ws, ".claude", "skills", "alpha", "SKILL.md")
	c, err := New(t.Context(), &Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(t.Context())
	if err != nil || len(l.Skills) != 1 {
		t.Fatalf("list: %v, %d skills", err, len(l.Skills))
	}
	s := l.Skills[0]
	read := func() (os.FileInfo, []byte) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi, data
	}
	fi, data := read()
	if p, _, ok := c.parsedFile(s, fi, data); !ok || p.Body != "Body." {
		t.Fatalf("unchanged file: ok %t, parse %+v", ok, p)
	}
	if err := os.WriteFile(path, []byte("---\nname: alpha\ndescription: Second.\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	fi, data = read()
	if p, _, ok := c.parsedFile(s, fi, data); ok {
		t.Errorf("a rewritten file got the listing's parse %+v", p)
	}
}

// TestParsedFileBodies: the body cut from the bytes is skill.Parse's on
// line ends, white space and frontmatter shapes the corpus lacks.
func TestParsedFileBodies(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"crlf":    "---\r\nname: crlf\r\ndescription: CRLF.\r\n---\r\n\r\nLine one.\r\nLine two.\r\n\r\n",
		"lonecr":  "---\nname: lonecr\ndescription: Lone CR.\n---\nA\rB\r\r",
		"tabs":    "---\nname: tabs\ndescription: Tabs.\n---\n\n\n\tIndented.\t \n\t\n",
		"bom":     "\ufeff---\nname: bom\ndescription: BOM.\n---\nBody.\n",
		"nofm":    "# No frontmatter\n\nJust prose that describes the skill.\n",
		"empty":   "---\nname: empty\ndescription: Empty body.\n---\n",
		"unicode": "---\nname: unicode\ndescription: Unicode.\n---\nÄ\u00a0\n",
	}
	tree := map[string]string{}
	for name, text := range files {
		tree[".claude/skills/"+name+"/SKILL.md"] = text
	}
	ws := t.TempDir()
	writeTree(t, ws, tree)
	for _, bodies := range []bool{false, true} {
		c, err := New(t.Context(), &Options{Workspace: ws, NoUser: true, NoConfigFile: true, bodies: bodies})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Skills) != len(files) {
			t.Fatalf("%d skills listed, want %d: %v", len(l.Skills), len(files), l.Diagnostics)
		}
		for _, s := range l.Skills {
			data, _ := os.ReadFile(s.Location)
			fi, _ := os.Stat(s.Location)
			p, _, ok := c.parsedFile(s, fi, data)
			want, _ := skill.Parse(data, &skill.Options{Path: s.Location, MaxDescriptionChars: c.Settings().MaxDescriptionChars})
			if !ok || p.Body != want.Body {
				t.Errorf("bodies %t: %s: ok %t, body %q, want %q", bodies, s.Name, ok, p.Body, want.Body)
			}
		}
	}
}
