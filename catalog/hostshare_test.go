package catalog

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/profile"
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

// countStats counts the calls of hostStat and hostLstat until the test
// ends.
func countStats(tb testing.TB) *int {
	n := new(int)
	stat, lstat := hostStat, hostLstat
	hostStat = func(p string) (fs.FileInfo, error) { *n++; return stat(p) }
	hostLstat = func(p string) (fs.FileInfo, error) { *n++; return lstat(p) }
	tb.Cleanup(func() { hostStat, hostLstat = stat, lstat })
	return n
}

// TestHostShareStatsOnce: the profiles' searches of one run (hostFilesAll)
// stat each skill file at most twice in all (os.Stat and os.Lstat), not
// twice for each profile that searches it: 22 a file for the eleven
// built-in profiles before the stats were shared.
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
	if *n > 2*files {
		t.Errorf("%d stats for %d skill files and %d profiles, want at most %d", *n, files, len(ls), 2*files)
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
