//go:build linux && (amd64 || arm64)

package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// sysCountEnv names, in a child of TestListSyscalls, the workspace it
// lists between the markers.
const sysCountEnv = "SKILLET_TEST_SYSCOUNT_TREE"

// sysTally is the system calls of one listing: on files (fileCalls) and in
// all, and by name.
type sysTally struct {
	skills, file, all int
	byName            map[string]int
}

// listSyscalls lists workspace ws in a child process traced with ptrace(2)
// (traceChild) and tallies the system calls the listing made: New and Each
// between the child's markers, the start of the process and of the test
// binary left out. It skips tb when tracing is not permitted.
func listSyscalls(tb testing.TB, ws string) sysTally {
	tb.Helper()
	args := []string{os.Args[0], "-test.run=^TestListSyscalls$", "-test.count=1"}
	counts, out, err := traceChild(args, append(os.Environ(), sysCountEnv+"="+ws))
	if errors.Is(err, errNoPtrace) {
		tb.Skip("counting system calls needs ptrace(2):", err)
	}
	if err != nil {
		tb.Fatalf("traced child: %v\n%s", err, out)
	}
	t := sysTally{byName: map[string]int{}}
	if _, err := fmt.Sscanf(string(out), "skills %d\n", &t.skills); err != nil {
		tb.Fatalf("traced child: no count of skills (%v):\n%s", err, out)
	}
	for nr, n := range counts {
		t.all += n
		name, ok := fileCalls[nr]
		if ok {
			t.file += n
		} else if name, ok = otherCalls[nr]; !ok {
			name = fmt.Sprintf("sys_%d", nr)
		}
		t.byName[name] += n
	}
	return t
}

// String is the tally, then one call a line (most first) with its count
// and, when the listing had skills, its count per skill handed out.
func (t sysTally) String() string {
	names := make([]string, 0, len(t.byName))
	for name := range t.byName {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := t.byName[names[i]], t.byName[names[j]]
		return a > b || a == b && names[i] < names[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d skills: %d system calls, %d on files\n", t.skills, t.all, t.file)
	for _, name := range names {
		fmt.Fprintf(&b, "  %-14s %7d", name, t.byName[name])
		if t.skills > 0 {
			fmt.Fprintf(&b, "  %.3f a skill", float64(t.byName[name])/float64(t.skills))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Per skill and per folder, the system calls on files a listing makes
// (docs/performance.md#system-calls-per-skill): a skill is the
// walk's fstatat of name/SKILL.md from the open folder, then the reader's
// openat2, pread64, fstat and close; a grouping folder (no SKILL.md) is
// the fstatat that misses its SKILL.md, then openat, two getdents64 (the
// entries, then the end) and close. What a listing makes once (the
// workspace's ancestors searched for .git and the roots, the root opened)
// is taken from a listing of an empty root at the same depth.
const (
	sysPerSkill  = 5
	sysPerFolder = 5
	// sysSpare is the calls over the bound a listing may make: room for a
	// call the kernel restarts after a signal (SIGURG, the runtime's
	// preemption). Listings of the test's trees come 3 to 5 calls under
	// the bound without it (7 December 2026); one more call a skill or a
	// folder adds 300 or 50 at 300 skills.
	sysSpare = 8
)

// TestListSyscalls counts, with ptrace(2), the system calls on files of a
// listing (New, then Each, as list --json) of a generated tree of skills
// none of them broken (the folder of a skill that does not load is
// searched for SKILL.md files below it, Catalog.nestedDiags), and requires at most sysPerSkill a skill and sysPerFolder a
// grouping folder beyond what an empty workspace costs. An extra fstatat
// or open per skill in the walk or the reader fails it; so does one more
// per folder. In the child (sysCountEnv set) it is the listing traced.
func TestListSyscalls(t *testing.T) {
	if ws := os.Getenv(sysCountEnv); ws != "" {
		n, err := listMarked(ws)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("skills %d\n", n)
		return
	}
	n := 1000
	if testing.Short() {
		n = 300
	}
	ws, empty := t.TempDir(), t.TempDir()
	st, err := tree.Generate(ws, &tree.Options{N: n, Seed: 11, BrokenPercent: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(empty, "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, base := listSyscalls(t, ws), listSyscalls(t, empty)
	if got.skills != st.Skills {
		t.Fatalf("the traced listing handed out %d skills, the tree has %d", got.skills, st.Skills)
	}
	folders := groupFolders(t, filepath.Join(ws, "skills"))
	max := base.file + sysPerSkill*st.Skills + sysPerFolder*folders + sysSpare
	per := float64(got.file-base.file-sysPerFolder*folders) / float64(st.Skills)
	t.Logf("%.3f calls on files a skill beyond %d a folder (%d folders); the listing:\n%sof an empty workspace:\n%s",
		per, sysPerFolder, folders, got, base)
	if got.file > max {
		t.Errorf("a listing of %d skills in %d folders made %d system calls on files, over %d "+
			"(%d for an empty workspace, %d a skill, %d a folder, %d spare): %.2f a skill\n%s",
			st.Skills, folders, got.file, max, base.file, sysPerSkill, sysPerFolder, sysSpare, per, got)
	}
}

// BenchmarkListSyscalls counts the system calls of a listing of 1,000
// skills (benchTree: 3% broken, the tree of bench/compare.sh) made as
// list --json makes it, in a child traced with ptrace(2) (listSyscalls),
// and reports them per skill file: syscalls/skill in all, file-syscalls/skill
// on files (fileCalls), other-syscalls/skill (the runtime's and the
// scheduler's: futex, nanosleep, ...; they grow under the tracer, which
// slows every call) and NAME/skill for each call on files. The counts on
// files are the same from run to run; ns/op is the traced child's and says
// nothing of a listing's speed.
func BenchmarkListSyscalls(b *testing.B) {
	const n = 1000
	ws := benchTree(b, n)
	var t sysTally
	for b.Loop() {
		t = listSyscalls(b, ws)
	}
	b.ReportMetric(float64(t.all)/n, "syscalls/skill")
	b.ReportMetric(float64(t.file)/n, "file-syscalls/skill")
	b.ReportMetric(float64(t.all-t.file)/n, "other-syscalls/skill")
	for _, name := range fileCalls {
		if c := t.byName[name]; c > 0 {
			b.ReportMetric(float64(c)/n, name+"/skill")
		}
	}
}

// groupFolders is how many folders below root the walk lists besides root
// itself: those with no SKILL.md (a skill folder is not listed), found by
// os.ReadDir here, not by the catalog.
func groupFolders(tb testing.TB, root string) int {
	tb.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if !e.IsDir() {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, "SKILL.md")); err == nil {
			continue
		}
		n += 1 + groupFolders(tb, dir)
	}
	return n
}
