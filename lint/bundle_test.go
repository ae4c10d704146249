package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/skill"
)

// TestWalkBundle holds walkBundle (getdents64 on Linux) to the
// filepath.WalkDir walk, finding for finding and in order: links inside
// and outside, broken links, skipped and too-deep folders, the skill file
// as a link, a skill folder that is a link, the entry cap, and folders that
// are not walked at all.
func TestWalkBundle(t *testing.T) {
	t.Parallel()
	ws, cases := bundleTree(t)
	for _, tc := range cases {
		base := filepath.Join(ws, tc.dir)
		if strings.HasSuffix(tc.dir, "/") || strings.HasPrefix(tc.dir, "./") {
			base = ws + "/" + tc.dir
		}
		s := &catalog.Skill{Name: "s", BaseDir: base, Location: filepath.Join(base, tc.file)}
		want := walkBundleDir(about(s))
		got := walkBundle(about(s), nil)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: walkBundle differs from the WalkDir walk (-want +got):\n%s", tc.dir, diff)
		}
		if tc.dir == "a" && tc.file == "SKILL.md" && len(want) != 5 {
			t.Errorf("a: %d findings, want 5: %v", len(want), want)
		}
		if tc.dir == "big" && len(want) != maxBundleEntries-2 { // the folder and SKILL.md count too
			t.Errorf("big: %d findings, want %d", len(want), maxBundleEntries-2)
		}
	}
}

// bundleTree writes TestWalkBundle's tree into a new temporary folder
// and returns it with the skill folders and files to walk (a folder
// ending in a separator or starting with "./" is joined as it is).
func bundleTree(t *testing.T) (ws string, cases []struct{ dir, file string }) {
	ws = t.TempDir()
	files := map[string]string{
		"outside.md":                        "x",
		"out/dir/f.md":                      "y",
		"a/SKILL.md":                        "s",
		"a/references/guide.md":             "g",
		"a/node_modules/pkg/index.js":       "",
		"a/.git/config":                     "",
		"a/Zed/b.md":                        "",
		"big/SKILL.md":                      "s",
		"plain/SKILL.md":                    "s",
		"plain/scripts/run.sh":              "",
		"linked-skill/SKILL.md":             "s",
		"nolink/SKILL.md":                   "s",
		"deep/SKILL.md":                     "s",
		"deep/1/2/3/4/5/6/7/8/9/inner.md":   "",
		"unreadable/SKILL.md":               "s",
		"unreadable/locked/in.md":           "",
		"linkfile/real.md":                  "---\nname: x\n---\n",
		"a/assets/with space/and-ü.md":      "",
		"a/assets/with space/and-ü.md.orig": "",
	}
	writeTree(t, ws, files)
	links := map[string]string{
		"a/references/out.md":     "../../outside.md",
		"a/references/in.md":      "guide.md",
		"a/sibling":               "../plain",
		"a/broken.md":             "missing.md",
		"a/node_modules/pkg/x.md": "../../../outside.md",
		"a/.git/x.md":             "../../outside.md",
		"a/Zed/out":               "../../out/dir",
		"a/assets/with space/l":   "../../../outside.md",
		"a/abs":                   filepath.Join(ws, "outside.md"),
		"linkfile/SKILL.md":       "real.md",
		"linked":                  "linked-skill",
		"deep/1/2/3/4/5/6/7/out":  "../../../../../../../../outside.md",
		"deep/1/2/3/4/5/6/7/8/o":  "../../../../../../../../../outside.md",
	}
	for i := range 5000 {
		links[fmt.Sprintf("big/l%04d", i)] = "../outside.md"
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	if err := os.Chmod(filepath.Join(ws, "unreadable/locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(ws, "unreadable/locked"), 0o755) })
	return ws, []struct{ dir, file string }{
		{"a", "SKILL.md"}, {"a/", "SKILL.md"}, {"./a", "SKILL.md"}, {"big", "SKILL.md"}, {"plain", "SKILL.md"},
		{"linked", "SKILL.md"}, {"deep", "SKILL.md"}, {"unreadable", "SKILL.md"}, {"linkfile", "SKILL.md"},
		{"missing", "SKILL.md"}, {"outside.md", "SKILL.md"}, {"a", "broken.md"}, {"a/Zed", "b.md"}, {"a/sibling", "SKILL.md"},
	}
}

// TestWalkBundleListed holds the walk of a skill folder from the host
// searches' listings (subject.listed) to the walk of the file system: the
// same findings in the same order and the same folder view (the top
// level's names in the file system's order, the folders and files seen),
// on TestWalkBundle's tree, with the listings of the host searches of it
// (catalogx.HostReads.Listed), with every folder listed by os (following
// symlinks, as the searches do, each symlinked folder listed under the
// link's path), and with every other folder left out (those are opened by
// their path): a skill folder that is a link, or is reached by a path
// that is not clean, is walked on the file system. Under -short the
// folder of 5,000 links (the entry cap) is walked from the searches'
// listings only, not from os's or half of them.
func TestWalkBundleListed(t *testing.T) {
	t.Parallel()
	ws, cases := bundleTree(t)
	hr, err := catx.HostSearch(context.Background(), hostProfiles(), &catalog.Options{Workspace: t.TempDir(),
		NoUser: true, NoConfigFile: true, ExtraPaths: []string{ws}})
	if err != nil {
		t.Fatal(err)
	}
	full, folders := osListings(ws)
	half, n := map[string][]catalogx.ListedEntry{}, 0
	for p, ents := range full {
		if n++; n%2 == 0 {
			half[p] = ents
		}
	}
	fromMap := func(m map[string][]catalogx.ListedEntry) *listedDirs {
		return &listedDirs{folder: func(p string) bool { return folders[p] }, listed: func(p string) ([]catalogx.ListedEntry, bool) {
			ents, ok := m[p]
			return ents, ok
		}}
	}
	// The walk of the file system, the same for every listing: made once
	// a case.
	base := func(dir string) string {
		if strings.HasSuffix(dir, "/") || strings.HasPrefix(dir, "./") {
			return ws + "/" + dir
		}
		return filepath.Join(ws, dir)
	}
	skillOf := func(dir, file string) *catalog.Skill {
		return &catalog.Skill{Name: "s", BaseDir: base(dir), Location: filepath.Join(base(dir), file)}
	}
	wants := make([][]skill.Diagnostic, len(cases))
	wantViews := make([]folderView, len(cases))
	for i, tc := range cases {
		wants[i] = walkBundle(about(skillOf(tc.dir, tc.file)), &wantViews[i])
	}
	hits := 0
	for name, l := range map[string]*listedDirs{"search": {folder: hr.Folder, listed: hr.Listed}, "os": fromMap(full), "half": fromMap(half)} {
		if l.listed == nil || l.folder == nil {
			t.Fatalf("%s: no listings", name)
		}
		counted := l.listed
		l.listed = func(p string) ([]catalogx.ListedEntry, bool) {
			ents, ok := counted(p)
			if ok {
				hits++
			}
			return ents, ok
		}
		for i, tc := range cases {
			if testing.Short() && tc.dir == "big" && name != "search" {
				continue // -short: the entry cap from the host searches' listings only
			}
			var gotView folderView
			want, wantView := wants[i], wantViews[i]
			sub := about(skillOf(tc.dir, tc.file))
			sub.listed = l
			got := walkBundle(sub, &gotView)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %s: the walk from the listings differs (-want +got):\n%s", name, tc.dir, diff)
			}
			if diff := cmp.Diff(wantView, gotView, cmp.AllowUnexported(folderView{}, seenEntry{})); diff != "" {
				t.Errorf("%s, %s: the view from the listings differs (-want +got):\n%s", name, tc.dir, diff)
			}
		}
	}
	if hits < len(full) {
		t.Errorf("%d folders read from the listings, want at least %d: the walk does not take them", hits, len(full))
	}
}

// osListings lists every folder below root as the host searches do, by
// (*os.File).ReadDir in the file system's order, following symlinks (at
// most 12 folders deep), each by its path joined below root; folders are
// the paths whose entry in their parent's listing is a folder, not a link.
func osListings(root string) (map[string][]catalogx.ListedEntry, map[string]bool) {
	out, folders := map[string][]catalogx.ListedEntry{}, map[string]bool{}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		f, err := os.Open(dir)
		if err != nil || depth > 12 {
			return
		}
		ents, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return
		}
		var listed []catalogx.ListedEntry
		for _, e := range ents {
			listed = append(listed, catalogx.ListedEntry{Name: e.Name(), Type: e.Type()})
		}
		out[dir] = listed
		for _, e := range ents {
			p := dir + string(filepath.Separator) + e.Name()
			if e.IsDir() {
				folders[p] = true
			}
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				walk(p, depth+1)
			}
		}
	}
	walk(root, 0)
	return out, folders
}

// TestRunChecks holds runChecks, which reads a skill folder once for both
// checks, to the checks of allChecks run one by one: the same findings in the
// same order, letter-case variants at the top level and below included,
// on a generated tree and hand-made folders (one that is a link, one with
// two variants of a name, whose order is the file system's).
func TestRunChecks(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 60, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	body := "---\nname: %s\ndescription: d\n---\n\nSee [g](references/guide.md), [h](Guide.md), `scripts/run.sh`, [o](notes/X.md) and [l](out.md).\n"
	files := map[string]string{"outside.md": "x"}
	for _, n := range []string{"a", "b", "c", "d", "real"} {
		files["skills/"+n+"/SKILL.md"] = fmt.Sprintf(body, n)
	}
	// listReferences the walk saw (the stat is skipped), and others: through a
	// linked folder, to a folder, a code span without its .md, below a
	// folder the walk does not enter.
	files["skills/e/SKILL.md"] = "---\nname: e\ndescription: d\n---\n\nRead `references/guide`, [r](references/), [g](references/guide.md), " +
		"[s](scripts/run.sh), [n](node_modules/x/y.md), [d](references/deep/er/x.md) and [m](references/missing.md).\n"
	for name, text := range map[string]string{
		"a/References/guide.md": "", "a/GUIDE.md": "", "a/guide.MD": "", "a/Guide.MD": "", "a/gUide.md": "", "a/GUIDE.MD": "", "a/guiDE.md": "", "a/GuIdE.md": "", "a/Scripts/Run.sh": "", "a/notes/x.md": "",
		"b/references/Guide.md": "", "b/SCRIPTS/run.sh": "",
		"real/GUIDE.md":         "",
		"d/references/guide.md": "", "d/notes/X.md": "",
		"e/references/guide.md": "", "e/node_modules/x/y.md": "", "e/references/deep/er/x.md": "",
	} {
		files["skills/"+name] = text
	}
	writeTree(t, ws, files)
	for link, target := range map[string]string{"skills/c/out.md": "../../outside.md", "skills/linked": "real",
		"skills/d/scripts": "references", "skills/d/out.md": "notes/X.md", "skills/e/scripts": "references"} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	var skills []*catalog.Skill
	for _, w := range []string{ws, gen} {
		o := &catalog.Options{Workspace: w, NoUser: true, NoConfigFile: true}
		catx.KeepBodies(o)
		c, err := catalog.New(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		skills = append(skills, l.Skills...)
	}
	variants := 0
	for _, s := range skills {
		var want []skill.Diagnostic
		for _, ch := range allChecks() {
			want = append(want, ch.Run(s)...)
		}
		for _, d := range want {
			if strings.Contains(d.Message, "letter case matters") {
				variants++
			}
		}
		if diff := cmp.Diff(want, runChecks(about(s))); diff != "" {
			t.Errorf("%s: runChecks differs from the checks one by one (-want +got):\n%s", s.Location, diff)
		}
	}
	if len(skills) < 64 || variants < 4 {
		t.Errorf("%d skills, %d letter-case findings: the tree does not test what it should", len(skills), variants)
	}
}

// TestRunFindingsViewAfterWalk: the room of a folder view is reused from
// one skill file to the next (runScratch.put), and a skill whose folder
// the walk cannot read, checked right after one it could, still finds no
// names of the top level (the body check asks the file system), as when
// the checks run one by one on a pass of their own.
func TestRunFindingsViewAfterWalk(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"skills/a/SKILL.md":            "---\nname: a\ndescription: d\n---\n\nSee [g](references/guide.md) and [m](missing.md).\n",
		"skills/a/references/guide.md": "",
	})
	o := &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}
	catx.KeepBodies(o)
	c, err := catalog.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil || len(l.Skills) != 1 {
		t.Fatalf("list: %v, %d skills", err, len(l.Skills))
	}
	walked := about(l.Skills[0])
	gone := *walked
	gone.baseDir = filepath.Join(ws, "skills", "gone")
	gone.location = filepath.Join(gone.baseDir, "SKILL.md")
	for range 3 {
		for _, s := range []*subject{walked, &gone} {
			var want []skill.Diagnostic
			for _, ch := range allChecks() {
				f := findings{path: s.location, skill: s.name}
				ch.run(&pass{s: s}, &f)
				want = f.appendTo(want)
			}
			if diff := cmp.Diff(want, runChecks(s)); diff != "" {
				t.Errorf("%s: runChecks differs from the checks on passes of their own (-want +got):\n%s", s.location, diff)
			}
		}
	}
	sc := new(runScratch)
	sc.p.view = folderView{top: []string{"references"}, seen: []seenEntry{{rel: "references", dir: true}}}
	sc.reset()
	if v := sc.p.view; v.top != nil || v.seen != nil || len(v.spareTop) != 0 || len(v.spareSeen) != 0 ||
		v.spareTop[:1][0] != "" || v.spareSeen[:1][0] != (seenEntry{}) {
		t.Errorf("after reset the view is %+v, want no names and its room cleared", v)
	}
}

func TestAbsentAt(t *testing.T) {
	t.Parallel()
	names := []string{"SKILL.md", "References", "scripts"}
	for _, tc := range []struct {
		names []string
		p     string
		want  bool
	}{
		{names, "references/guide.md", false}, // a letter-case variant
		{names, "scripts/run.sh", false},
		{names, "assets/logo.png", true},
		{names, "skill.MD", false},
		{names, "guide.md", true},
		{names, ".", false},
		{names, "../x.md", false},
		{names, "ünï/x.md", false},                 // not ASCII: a folding file system may normalize it
		{[]string{"Kelvin", "\u212a"}, "k", false}, // a name that is not ASCII
		{nil, "guide.md", true},
		{[]string{}, "a/b", true},
	} {
		if got := absentAt(tc.names, tc.p); got != tc.want {
			t.Errorf("absentAt(%q, %q) = %v, want %v", tc.names, tc.p, got, tc.want)
		}
	}
}

// TestFolderViewExists: what the walk of a skill folder saw answers for
// the paths it saw as files or folders through folders only, and for
// nothing else (those are asked of the file system).
func TestFolderViewExists(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"skills/e/SKILL.md":             "---\nname: e\ndescription: d\n---\n\nBody.\n",
		"skills/e/references/guide.md":  "",
		"skills/e/references/deep/x.md": "",
		"skills/e/node_modules/x/y.md":  "",
	})
	if err := os.Symlink("references", filepath.Join(ws, "skills/e/scripts")); err != nil {
		t.Skip("no symlinks:", err)
	}
	var view folderView
	walkBundle(about(loadOne(t, ws, "e")), &view)
	if view.top == nil {
		t.Skip("no walk on this system")
	}
	for p, want := range map[string]bool{
		"references/guide.md": true, "references": true, "references/deep/x.md": true, "references/deep": true, "SKILL.md": true,
		"node_modules": true, "node_modules/x/y.md": false, // not walked
		"scripts": false, "scripts/guide.md": false, // a link
		"references/missing.md": false, "references/guide.md/x": false, ".": false, "": false, "../e/SKILL.md": false,
		"References/guide.md": false, // letter case: the file system decides
	} {
		if got := view.exists(p); got != want {
			t.Errorf("exists(%q) = %v, want %v", p, got, want)
		}
	}
	var none *folderView
	if none.exists("SKILL.md") {
		t.Error("a nil view says a path exists")
	}
}
