package cli

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"testing"
)

// TestListGCOn: only list lowers GOGC for a large listing, and not in a
// process given GOGC or GOMEMLIMIT.
func TestListGCOn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		command string
		env     map[string]string
		want    bool
	}{
		{"list", nil, true},
		{"show", nil, false},
		{"lint", nil, false},
		{"serve", nil, false},
		{"", nil, false},
		{"list", map[string]string{"GOGC": "100"}, false},
		{"list", map[string]string{"GOMEMLIMIT": "1GiB"}, false},
	} {
		getenv := func(k string) string { return tc.env[k] }
		if got := listGCOn(tc.command, getenv); got != tc.want {
			t.Errorf("listGCOn(%q, %v) = %v, want %v", tc.command, tc.env, got, tc.want)
		}
	}
}

// TestLiveGC feeds liveGC a live heap that grows with the skills handed
// out and requires each step taken once, in order, at the first look past
// its size, none when there are no steps or the heap stays small, and the
// live heap read under the GOGC last set.
func TestLiveGC(t *testing.T) {
	t.Parallel()
	two := []gcStep{{8 << 20, 50}, {16 << 20, 35}}
	for _, tc := range []struct {
		name     string
		steps    []gcStep
		perSkill uint64 // live bytes per skill handed out
		skills   int
		wantAt   []int // skills handed out when each GOGC is set
	}{
		{"both", two, 1000, 20 * listGCEvery, []int{9 * listGCEvery, 17 * listGCEvery}}, // 8 MiB at 8,389 skills, 16 MiB at 16,778
		{"exact", two, (8 << 20) / (2 * listGCEvery), 5 * listGCEvery, []int{2 * listGCEvery, 4 * listGCEvery}},
		{"at once", two, 20 << 20 / listGCEvery, 2 * listGCEvery, []int{listGCEvery, listGCEvery}},
		{"first only", two, 1000, 12 * listGCEvery, []int{9 * listGCEvery}},
		{"small", two, 100, 20 * listGCEvery, nil},
		{"off", nil, 1000, 20 * listGCEvery, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newLiveGC(tc.steps)
			n, gogc := 0, 100
			var at []int
			if g != nil {
				g.live = func(g int) uint64 {
					if g != gogc {
						t.Errorf("live heap read under GOGC=%d, set %d", g, gogc)
					}
					return uint64(n) * tc.perSkill
				}
				g.set = func(p int) int {
					if want := tc.steps[len(at)].percent; p != want {
						t.Errorf("GOGC set to %d, want %d", p, want)
					}
					old := gogc
					gogc = p
					at = append(at, n)
					return old
				}
			}
			for range tc.skills {
				n++
				g.skill()
			}
			if !slices.Equal(at, tc.wantAt) {
				t.Errorf("GOGC set at %v skills, want %v", at, tc.wantAt)
			}
		})
	}
}

// TestLiveHeap holds liveHeap, the heap goal of ReadMemStats over 1 +
// GOGC/100, to runtime/metrics' /gc/heap/live:bytes (which the command does
// not link: internal/archtest's TestNotLinked) after a collection with 12
// MiB live, at each GOGC liveGC runs with: within 1 MiB, the stacks and
// globals the goal also counts.
func TestLiveHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	keep := make([][]byte, 12)
	for i := range keep {
		keep[i] = make([]byte, 1<<20)
	}
	for _, gogc := range []int{100, 50, 35} {
		debug.SetGCPercent(gogc)
		runtime.GC()
		got := liveHeap(gogc)
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		want := s[0].Value.Uint64()
		t.Logf("GOGC=%d: liveHeap %d, /gc/heap/live:bytes %d", gogc, got, want)
		if want < 12<<20 || got < want || got > want+1<<20 {
			t.Errorf("GOGC=%d: liveHeap = %d, /gc/heap/live:bytes = %d: want it at most 1 MiB above, and that at least 12 MiB", gogc, got, want)
		}
	}
	runtime.KeepAlive(keep)
}

// BenchmarkLiveHeap is what each look of liveGC costs (a ReadMemStats,
// which stops the world), made every listGCEvery skills.
func BenchmarkLiveHeap(b *testing.B) {
	for b.Loop() {
		liveHeap(100)
	}
}
