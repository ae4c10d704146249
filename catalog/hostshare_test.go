package catalog

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/skill"
)

// hostShareTree is a workspace whose skills every built-in profile
// searches: n generated skills as an extra path.
func hostShareTree(tb testing.TB, n int) *Options {
	ws := tb.TempDir()
	extra := filepath.Join(ws, "extra")
	if _, err := tree.Generate(extra, &tree.Options{N: n, Seed: 3}); err != nil {
		tb.Fatal(err)
	}
	return &Options{Workspace: ws, NoUser: true, NoConfigFile: true, ExtraPaths: []string{extra}}
}

// countStats counts the pathMemo's stats and lstats of skill files (a
// path named SKILL.md in any letter case) until the test ends; the
// roots' stats are not counted.
func countStats(tb testing.TB) *int {
	n := new(int)
	stat, lstat := memoStat, memoLstat
	count := func(p string) {
		if strings.EqualFold(filepath.Base(p), SkillFile) {
			*n++
		}
	}
	memoStat = func(p string) (fs.FileInfo, error) { count(p); return stat(p) }
	memoLstat = func(p string) (fs.FileInfo, error) { count(p); return lstat(p) }
	tb.Cleanup(func() { memoStat, memoLstat = stat, lstat })
	return n
}

// TestHostShareStatsOnce: the profiles' searches of one run (hostFilesAll)
// stat no skill file that the folder's listing types as a regular file
// (the tree's are), where they stat'ed each twice (os.Stat and os.Lstat),
// and 22 times a file for the eleven built-in profiles before the stats
// were shared.
// TestHostFilesAllIsHostFiles (internal/catalogx) holds the shared
// searches' verdicts to each profile's own.
func TestHostShareStatsOnce(t *testing.T) {
	opts := hostShareTree(t, 40)
	files := 0
	if err := filepath.WalkDir(opts.ExtraPaths[0], func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == SkillFile {
			files++
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	n := countStats(t)
	ls, err := hostFilesAll(context.Background(), profile.All(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		if len(l.Files) < files {
			t.Fatalf("%d files listed, want %d", len(l.Files), files)
		}
	}
	if *n > 0 {
		t.Errorf("%d stats for %d skill files and %d profiles, all regular files: want none", *n, files, len(ls))
	}
}

// BenchmarkHostFilesAll lists 500 generated skills, an extra path, with
// every built-in profile, as lint --compat does; stats/file is how many
// times a skill file was stat'ed.
//
//	go test ./catalog -run '^$' -bench HostFilesAll -benchmem
func BenchmarkHostFilesAll(b *testing.B) {
	const n = 500
	opts := hostShareTree(b, n)
	stats := countStats(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hostFilesAll(context.Background(), profile.All(), opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(*stats)/float64(b.N)/n, "stats/file")
}

// TestHostShareSearchesOnce: the profiles' searches of one run
// (hostFilesAll) search each root once for all the profiles whose rules
// for it are alike (searchKey), not once for each profile: the extra
// path every profile searches is searched as many times as there are
// distinct keys for it. TestHostFilesAllIsHostFiles (internal/catalogx)
// holds the shared searches' verdicts to each profile's own.
func TestHostShareSearchesOnce(t *testing.T) {
	opts := hostShareTree(t, 20)
	runs := map[string]int{}
	run := hostRunSearch
	hostRunSearch = func(h *hostSearch) { runs[h.root.Path]++; run(h) }
	t.Cleanup(func() { hostRunSearch = run })
	ps := profile.All()
	if _, err := hostFilesAll(context.Background(), ps, opts); err != nil {
		t.Fatal(err)
	}
	keys := map[searchKey]bool{}
	for _, p := range ps {
		h := &hostSearch{p: p, root: &hostRoot{label: opts.ExtraPaths[0]}}
		keys[searchKey{skips: strings.Join(h.skipPatterns(), "\x00"), rootSkill: p.Discovery.RootSkill}] = true
	}
	extra := opts.ExtraPaths[0]
	if runs[extra] == 0 || runs[extra] > len(keys) {
		t.Errorf("the extra path was searched %d times by %d profiles, want 1 to %d (the distinct rules)", runs[extra], len(ps), len(keys))
	}
	if len(keys) >= len(ps) {
		t.Errorf("%d distinct rules for %d profiles: the test shares nothing", len(keys), len(ps))
	}
	t.Logf("%d profiles, %d searches of the extra path, %d distinct rules", len(ps), runs[extra], len(keys))
}

// BenchmarkHostSearchGiven lists 500 generated skills, an extra path,
// with every built-in profile as lint --compat does since the profiles
// take each file from lint's listing's read (catalogx.HostSearch, Give of
// every file with the listing's parse of it, Finish): reads/file is how
// many times a skill file was read again (0: every profile took the bytes
// handed over), allocs/file and B/file what the listings allocate a file.
//
//	go test ./catalog -run '^$' -bench HostSearchGiven -benchmem
func BenchmarkHostSearchGiven(b *testing.B) {
	const n = 500
	opts := hostShareTree(b, n)
	var files []*catalogx.Parsed
	if err := filepath.WalkDir(opts.ExtraPaths[0], func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.EqualFold(d.Name(), SkillFile) {
			data, rerr := os.ReadFile(p)
			s, diags := skill.Parse(data, &skill.Options{Path: p, SkipBody: true})
			files = append(files, &catalogx.Parsed{Path: p, Dir: filepath.Dir(p), Skill: s, Diags: diags, Data: data})
			return rerr
		}
		return err
	}); err != nil {
		b.Fatal(err)
	}
	reads := 0
	read := hostReadShared
	hostReadShared = func(p string, max int) ([]byte, error) { reads++; return read(p, max) }
	b.Cleanup(func() { hostReadShared = read })
	ps := profile.All()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		hr, err := hostSearchAll(context.Background(), ps, opts)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range files {
			hr.Give(p)
		}
		hr.Finish()
	}
	runtime.ReadMemStats(&after)
	per := float64(b.N) * float64(len(files))
	b.ReportMetric(float64(reads)/per, "reads/file")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/per, "allocs/file")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/file")
}

// TestDetachVerdict: a verdict's texts that are parts of the file's bytes
// are copied, with the same value, each text once for the verdicts of a
// file; texts made elsewhere are left as they are.
func TestDetachVerdict(t *testing.T) {
	t.Parallel()
	data := []byte("---\nname: abc\ndescription: hello there\n---\n")
	part := func(s string) string {
		i := bytes.Index(data, []byte(s))
		return unsafe.String(&data[i], len(s))
	}
	inside := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		lo := uintptr(unsafe.Pointer(&data[0]))
		return s != "" && p >= lo && p < lo+uintptr(len(data))
	}
	made := strings.Repeat("x", 3)
	copies := map[string]string{}
	var vs [2]hostVerdict
	for i := range vs {
		v := &vs[i]
		v.Name, v.Description, v.alias, v.short = part("abc"), part("hello there"), part("abc"), part("hello")
		v.Changes = []string{part("name"), made}
		v.Reason = ""
		detachVerdict(v, data, copies)
		for _, s := range append([]string{v.Name, v.Description, v.alias, v.short}, v.Changes...) {
			if inside(s) {
				t.Errorf("verdict %d: %q still points into the file's bytes", i, s)
			}
		}
		if v.Name != "abc" || v.Description != "hello there" || v.short != "hello" || v.Changes[0] != "name" {
			t.Errorf("verdict %d: the texts changed: %q %q %q %q", i, v.Name, v.Description, v.short, v.Changes)
		}
		if unsafe.StringData(v.Changes[1]) != unsafe.StringData(made) {
			t.Errorf("verdict %d: a text made elsewhere was copied", i)
		}
	}
	if unsafe.StringData(vs[0].Name) != unsafe.StringData(vs[1].Name) || unsafe.StringData(vs[0].Name) != unsafe.StringData(vs[0].alias) {
		t.Error("one text of the file was copied more than once")
	}
}

// TestSkillFileAmongTypes: skillFileAmong, which stats only the entries
// the folder's listing does not type as regular files, finds the file that
// stat'ing every candidate finds (skillFileAmongStat, as it did), and
// regular is what os.Lstat says of it, in folders holding each kind of
// entry named SKILL.md in some letter case: a file, a folder, symlinks to
// a file, to a folder and to nothing.
func TestSkillFileAmongTypes(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	must(t, os.WriteFile(filepath.Join(base, "target.md"), []byte("x"), 0o644))
	must(t, os.Mkdir(filepath.Join(base, "targetdir"), 0o755))
	kinds := map[string]func(p string) error{
		"file":    func(p string) error { return os.WriteFile(p, []byte("x"), 0o644) },
		"dir":     func(p string) error { return os.Mkdir(p, 0o755) },
		"tofile":  func(p string) error { return os.Symlink(filepath.Join(base, "target.md"), p) },
		"todir":   func(p string) error { return os.Symlink(filepath.Join(base, "targetdir"), p) },
		"dangles": func(p string) error { return os.Symlink(filepath.Join(base, "nothing"), p) },
	}
	names := []string{"SKILL.md", "skill.md", "Skill.md"}
	n := 0
	for _, k1 := range []string{"file", "dir", "tofile", "todir", "dangles", ""} {
		for _, k2 := range []string{"file", "dir", "tofile", "todir", "dangles", ""} {
			for _, k3 := range []string{"file", "dir", "tofile", ""} {
				dir := filepath.Join(base, fmt.Sprint(n))
				n++
				must(t, os.Mkdir(dir, 0o755))
				for i, k := range []string{k1, k2, k3} {
					if k != "" {
						must(t, kinds[k](filepath.Join(dir, names[i])))
					}
				}
				entries, err := os.ReadDir(dir)
				must(t, err)
				listed, _, err := hostReadDir(dir, nil)
				must(t, err)
				for _, m := range []*pathMemo{nil, newPathMemo()} {
					got, regular := m.skillFileAmong(dir, listed)
					if want := skillFileAmongStat(dir, entries); got != want {
						t.Fatalf("%s (%s %s %s): %q, stat'ing each %q", dir, k1, k2, k3, got, want)
					}
					if got == "" {
						continue
					}
					fi, err := os.Lstat(filepath.Join(dir, got))
					if want := err == nil && fi.Mode().IsRegular(); regular != want {
						t.Fatalf("%s (%s %s %s): %s regular %v, lstat says %v", dir, k1, k2, k3, got, regular, want)
					}
				}
			}
		}
	}
}

// skillFileAmongStat is skillFileAmong stat'ing every entry named as a
// skill file in some letter case, as it did before it trusted the
// listing's types.
func skillFileAmongStat(dir string, entries []os.DirEntry) string {
	skillHere := ""
	for _, e := range entries {
		if strings.EqualFold(e.Name(), SkillFile) && (e.Name() == SkillFile || skillHere == "") {
			fi, err := os.Stat(filepath.Join(dir, e.Name()))
			if err == nil && fi.IsDir() {
				continue
			}
			skillHere = e.Name()
		}
	}
	return skillHere
}
