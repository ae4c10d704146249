package cli

import "testing"

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
