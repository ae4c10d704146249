package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// skilletPrefix is the import path prefix of skillet's own packages.
const skilletPrefix = "github.com/skillet-go/skillet/"

// pkgInit is what one package's initialisation cost in one start, as
// GODEBUG=inittrace=1 reports it.
type pkgInit struct {
	ms     float64
	bytes  int64
	allocs int64
	at     int // its place in the order of initialisation, from 0
}

// traceInit starts this test binary again with GODEBUG=inittrace=1 and
// no test to run, and returns each package's initialisation by import
// path. The binary links what skillet links (this package imports only
// internal/cli, and its tests add nothing to the other packages), so it
// initialises as a skillet process does before main.
func traceInit(tb testing.TB) map[string]pkgInit {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("%v: %s", err, stderr.Bytes())
	}
	out := map[string]pkgInit{}
	sc := bufio.NewScanner(bytes.NewReader(stderr.Bytes()))
	for sc.Scan() {
		// init PKG @T ms, MS ms clock, BYTES bytes, ALLOCS allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[6] != "clock," || f[10] != "allocs" {
			continue
		}
		ms, err1 := strconv.ParseFloat(f[4], 64)
		b, err2 := strconv.ParseInt(f[7], 10, 64)
		a, err3 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			tb.Fatalf("unexpected inittrace line %q", sc.Text())
		}
		out[f[1]] = pkgInit{ms, b, a, len(out)}
	}
	if len(out) == 0 {
		tb.Fatalf("no inittrace lines in %q", stderr.Bytes())
	}
	return out
}

// skilletInit sums the initialisation of skillet's own packages.
func skilletInit(inits map[string]pkgInit) (sum pkgInit, each []string) {
	for p, in := range inits {
		if strings.HasPrefix(p, skilletPrefix) {
			sum.ms += in.ms
			sum.bytes += in.bytes
			sum.allocs += in.allocs
			each = append(each, p+": "+strconv.FormatInt(in.allocs, 10)+" allocs, "+strconv.FormatInt(in.bytes, 10)+" bytes")
		}
	}
	return sum, each
}

// maxInitAllocs is where TestInitAllocations fails. skillet's packages
// allocated 412 times (73 KB) at every start before the last two regular
// expressions compiled at start (skill's host tool names, lint's
// when-to-use clause) were compiled on first use; 216 times (37 KB) after
// (docs/performance.md#start-up). The rest is the registry of diagnostic
// codes, the hooks between packages, the command line's tables and a few
// maps.
const maxInitAllocs = 300

// TestInitAllocations holds what skillet's own packages allocate in their
// initialisation, which every command pays before it starts, whichever it
// is. Allocation counts, unlike times, repeat from run to run.
func TestInitAllocations(t *testing.T) {
	sum, each := skilletInit(traceInit(t))
	t.Logf("skillet's packages at start: %d allocations, %d bytes\n%s", sum.allocs, sum.bytes, strings.Join(each, "\n"))
	if sum.allocs > maxInitAllocs {
		t.Errorf("skillet's packages allocate %d times at start, over %d", sum.allocs, maxInitAllocs)
	}
}

// BenchmarkStart starts a process that initialises every package skillet
// links and exits (this test binary with no test to run), and reports
// what skillet's own packages allocate in it, init-allocs and init-bytes
// per start, and what every linked package does, all-init-allocs and
// all-init-bytes (runtime/metrics, linked until 6 December for list's
// live heap, was 95 and 15 KB of them).
func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		if out, err := exec.Command(os.Args[0], "-test.run=^$").CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
	inits := traceInit(b)
	sum, _ := skilletInit(inits)
	b.ReportMetric(float64(sum.allocs), "init-allocs")
	b.ReportMetric(float64(sum.bytes), "init-bytes")
	var all pkgInit
	for _, in := range inits {
		all.allocs += in.allocs
		all.bytes += in.bytes
	}
	b.ReportMetric(float64(all.allocs), "all-init-allocs")
	b.ReportMetric(float64(all.bytes), "all-init-bytes")
}

// TestStackGrownFirst checks that internal/startstack, which grows the
// main goroutine's stack to what the initialisation needs, is initialised
// before any package that allocates in its initialisation (a package
// that calls deep enough to grow the stack allocates on the way: the
// growths the package saves were in mallocgc, reflect and regexp), and
// so before goldmark/util, whose regular expression needs the 128 KiB.
func TestStackGrownFirst(t *testing.T) {
	inits := traceInit(t)
	first, ok := inits[skilletPrefix+"internal/startstack"]
	if !ok {
		t.Fatal("internal/startstack is not initialised")
	}
	if u, ok := inits["github.com/yuin/goldmark/util"]; !ok || u.at < first.at {
		t.Errorf("goldmark/util initialised at %d (linked: %v), internal/startstack at %d", u.at, ok, first.at)
	}
	for p, in := range inits {
		if in.at < first.at && in.allocs > 0 {
			t.Errorf("%s allocates (%d times) in its initialisation, before internal/startstack's", p, in.allocs)
		}
	}
}
