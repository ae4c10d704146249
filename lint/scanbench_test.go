package lint

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchcpu"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// scanBenchSet is a set of bodies the reference scanner's benchmarks read
// (those mayReference lets through) and the lint options that lint them
// (the folders they come from).
type scanBenchSet struct {
	name   string
	bodies [][]byte
	opts   *Options
}

// scanBenchSets returns the published corpus (with corpus-community as a
// second target when it is there, as BenchmarkCompat lints them) and a
// generated tree of 1,000 skills (internal/benchtree, seed 1); the corpus
// is left out, with a message, when it cannot be found.
func scanBenchSets(b *testing.B) []scanBenchSet {
	gen := b.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	sets := []scanBenchSet{{name: "generated", bodies: refBodies(b, gen),
		opts: &Options{Catalog: &catalog.Options{Workspace: gen, NoUser: true, NoConfigFile: true}}}}
	dir := testcorpus.Find()
	if dir == "" {
		b.Log("corpus of published skills not found (SKILLET_CORPUS or ../shared/corpus): only the generated tree")
		return sets
	}
	targets := []string{dir}
	if community := filepath.Join(filepath.Dir(dir), "corpus-community"); dirExists(community) {
		targets = append(targets, community)
	}
	corpus := scanBenchSet{name: "corpus", bodies: refBodies(b, dir),
		opts: &Options{Catalog: &catalog.Options{Workspace: b.TempDir(), NoUser: true, NoConfigFile: true}, Targets: targets}}
	return append([]scanBenchSet{corpus}, sets...)
}

// refBodies returns the bodies of the SKILL.md files under dir that
// mayReference lets through: those the scanner or goldmark reads.
func refBodies(b *testing.B, dir string) [][]byte {
	var out [][]byte
	for _, body := range prefilterBodies(b, dir) {
		if mayReference(body) {
			out = append(out, []byte(body))
		}
	}
	return out
}

// BenchmarkReferenceScanner finds the references of bodies with goldmark
// only (goldmarkOnly, the plain path) and with the scanner (scan.go, which
// declines to goldmark what it does not read): "bodies" runs
// referencesTo over every body mayReference lets through, "lint" the
// whole of Run and the JSON report (where goldmarkOnly also turns off
// mayReference, so goldmark parses every body).
// cpu-ns/op is the process's CPU time an operation (internal/benchcpu).
//
// Six runs alternate the paths (-count would run each path its runs in a
// row):
//
//	for i in 1 2 3 4 5 6; do go test ./lint -run '^$' -bench ReferenceScanner -benchmem; done
func BenchmarkReferenceScanner(b *testing.B) {
	defer func(was bool) { goldmarkOnly = was }(goldmarkOnly)
	for _, set := range scanBenchSets(b) {
		for _, path := range []struct {
			name string
			only bool
		}{{"goldmark", true}, {"scanner", false}} {
			b.Run(set.name+"/bodies/"+path.name, func(b *testing.B) {
				goldmarkOnly = path.only
				b.ReportAllocs()
				var buf []foundRef
				cpu := benchcpu.Now()
				for b.Loop() {
					for _, body := range set.bodies {
						buf = referencesTo(buf, nil, body, false)[:0]
					}
				}
				benchcpu.Report(b, cpu)
				b.ReportMetric(float64(len(set.bodies)), "bodies")
			})
			b.Run(set.name+"/lint/"+path.name, func(b *testing.B) {
				goldmarkOnly = path.only
				b.ReportAllocs()
				cpu := benchcpu.Now()
				for b.Loop() {
					r, err := Run(context.Background(), set.opts)
					if err != nil {
						b.Fatal(err)
					}
					if err := r.WriteJSON(io.Discard); err != nil {
						b.Fatal(err)
					}
				}
				benchcpu.Report(b, cpu)
			})
		}
	}
}

// lineScanBytes is lineScan a byte at a time: the plain path of its
// eight-bytes-at-a-time loop (lineScanWord).
func lineScanBytes(b []byte, pos int) (eol, next int, clean, marks bool) {
	for i := pos; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\n':
			return i, i + 1, true, marks
		case c == '`' || c == '[':
			marks = true
		case lineStop[c] && (c != ']' || i+1 < len(b) && b[i+1] == ':'):
			eol, next = lineEnd(b, i)
			return eol, next, false, false
		}
	}
	return len(b), len(b), true, marks
}

// nextTickBytes is nextTick a byte at a time.
func nextTickBytes(b []byte, i, stop int) int {
	for i < stop && b[i] != '`' && b[i] != '[' {
		i++
	}
	return i
}

// scanLoops reads every line of bodies as the scanner does with its two
// hottest loops (ls, tick): each line once, and in a clean line that
// holds a mark every backtick and bracket in turn. It returns the marks
// found.
func scanLoops(bodies [][]byte, ls func([]byte, int) (int, int, bool, bool), tick func([]byte, int, int) int) int {
	n := 0
	for _, b := range bodies {
		for pos := 0; pos < len(b); {
			eol, next, clean, marks := ls(b, pos)
			if clean && marks {
				for i := tick(b, pos, eol); i < eol; i = tick(b, i+1, eol) {
					n++
				}
			}
			pos = next
		}
	}
	return n
}

// BenchmarkScanLoops runs the scanner's two hottest loops over every line
// of the bodies the scanner reads, a byte at a time (lineScanBytes,
// nextTickBytes: the plain path) and eight bytes at a time (lineScan,
// nextTick). Each line's result is first checked to be the same both
// ways. Compare with BenchmarkReferenceScanner's bodies/scanner and
// lint/scanner for their share.
// cpu-ns/op is the process's CPU time an operation (internal/benchcpu).
//
// Six runs alternate the paths (-count would run each path its runs in a
// row):
//
//	for i in 1 2 3 4 5 6; do go test ./lint -run '^$' -bench ScanLoops -benchmem; done
func BenchmarkScanLoops(b *testing.B) {
	for _, set := range scanBenchSets(b) {
		size := 0
		for _, body := range set.bodies {
			size += len(body)
			for pos := 0; pos < len(body); {
				e1, n1, c1, m1 := lineScan(body, pos)
				e2, n2, c2, m2 := lineScanBytes(body, pos)
				if e1 != e2 || n1 != n2 || c1 != c2 || m1 != m2 {
					b.Fatalf("lineScan at %d of a body: %d %d %v %v, a byte at a time %d %d %v %v", pos, e1, n1, c1, m1, e2, n2, c2, m2)
				}
				if t1, t2 := nextTick(body, pos, e1), nextTickBytes(body, pos, e1); t1 != t2 {
					b.Fatalf("nextTick at %d of a body: %d, a byte at a time %d", pos, t1, t2)
				}
				pos = n1
			}
		}
		for _, path := range []struct {
			name string
			ls   func([]byte, int) (int, int, bool, bool)
			tick func([]byte, int, int) int
		}{{"bytes", lineScanBytes, nextTickBytes}, {"words", lineScan, nextTick}} {
			b.Run(set.name+"/"+path.name, func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				cpu := benchcpu.Now()
				for b.Loop() {
					scanLoops(set.bodies, path.ls, path.tick)
				}
				benchcpu.Report(b, cpu)
			})
		}
	}
}
