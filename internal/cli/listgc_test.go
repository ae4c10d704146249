package cli

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// TestListGCOn: only list lowers GOGC for a large listing, and not in a
// process given GOGC or GOMEMLIMIT.
func TestListGCOn(t *testing.T) {
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
// out and requires GOGC set once, at the first look past the threshold,
// and never when the percent is 0 or the heap stays small.
func TestLiveGC(t *testing.T) {
	for _, tc := range []struct {
		name     string
		percent  int
		perSkill uint64 // live bytes per skill handed out
		skills   int
		wantAt   int // skills handed out when GOGC is set; 0: never
	}{
		{"large", 50, 1000, 10 * listGCEvery, 9 * listGCEvery}, // 8 MiB at 8,389 skills: the look at 9,216
		{"exact", 50, listGCLive / (2 * listGCEvery), 3 * listGCEvery, 2 * listGCEvery},
		{"small", 50, 100, 20 * listGCEvery, 0},
		{"off", 0, 1000, 20 * listGCEvery, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newLiveGC(tc.percent, listGCLive)
			n, sets, at := 0, 0, 0
			if g != nil {
				g.live = func() uint64 { return uint64(n) * tc.perSkill }
				g.set = func(p int) int {
					if p != tc.percent {
						t.Errorf("GOGC set to %d, want %d", p, tc.percent)
					}
					sets++
					at = n
					return 100
				}
			}
			for range tc.skills {
				n++
				g.skill()
			}
			if tc.wantAt == 0 && sets != 0 || tc.wantAt != 0 && (sets != 1 || at != tc.wantAt) {
				t.Errorf("GOGC set %d times, at %d skills; want once at %d (0: never)", sets, at, tc.wantAt)
			}
		})
	}
}

// TestLiveHeap holds liveHeap, half the heap goal of ReadMemStats, to
// runtime/metrics' /gc/heap/live:bytes (which the command does not link:
// internal/archtest's TestNotLinked) after a collection at GOGC=100 with
// 12 MiB live: within 1 MiB, the stacks and globals the goal also counts.
func TestLiveHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	keep := make([][]byte, 12)
	for i := range keep {
		keep[i] = make([]byte, 1<<20)
	}
	runtime.GC()
	got := liveHeap()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	want := s[0].Value.Uint64()
	runtime.KeepAlive(keep)
	t.Logf("liveHeap %d, /gc/heap/live:bytes %d", got, want)
	if want < 12<<20 || got < want || got > want+1<<20 {
		t.Errorf("liveHeap() = %d, /gc/heap/live:bytes = %d: want it at most 1 MiB above, and that at least 12 MiB", got, want)
	}
}

// BenchmarkLiveHeap is what each look of liveGC costs (a ReadMemStats,
// which stops the world), made every listGCEvery skills.
func BenchmarkLiveHeap(b *testing.B) {
	for b.Loop() {
		liveHeap()
	}
}
