package catalog

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/outfmt"
)

// TestFolderLastIsTheMap holds folderLast to the map it replaced: for
// each hash, the last candidate given with it, -1 for a hash not given;
// hashes repeat, and pairs come in any order.
func TestFolderLastIsTheMap(t *testing.T) {
	t.Parallel()
	for seed := range uint64(10) {
		r := rand.New(rand.NewPCG(seed, 2))
		n := r.IntN(2000)
		pairs := make([]folderAt, n)
		want := map[uint64]int{}
		for i := range pairs {
			h := uint64(r.IntN(1 + n/3))
			pairs[i] = folderAt{h, int32(i)}
			want[h] = i
		}
		r.Shuffle(len(pairs), func(a, b int) { pairs[a], pairs[b] = pairs[b], pairs[a] })
		f := newFolderLast(pairs)
		for h := range uint64(2 + n/3) {
			w, ok := want[h]
			if !ok {
				w = -1
			}
			if got := f.last(h); got != w {
				t.Fatalf("seed %d: last(%d) = %d, want %d", seed, h, got, w)
			}
		}
		if len(f.hashes) != len(want) {
			t.Errorf("seed %d: %d hashes kept for %d names", seed, len(f.hashes), len(want))
		}
	}
}

// TestRealBelow: a folder's symlink-free path is its own path when its
// parent's is the parent's path, else its name below the parent's.
func TestRealBelow(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ parentReal, path, want string }{
		{"/r/skills", "/r/skills/a", "/r/skills/a"},
		{"/", "/a", "/a"},
		{"/real/x", "/r/link/a", "/real/x/a"},
		{"/real", "/r/skills/team/a", "/real/a"},
	} {
		if got := realBelow(filepath.FromSlash(tt.parentReal), filepath.FromSlash(tt.path)); got != filepath.FromSlash(tt.want) {
			t.Errorf("realBelow(%q, %q) = %q, want %q", tt.parentReal, tt.path, got, tt.want)
		}
	}
}

// TestLimitKeepsTenNames: maxSkills' diagnostic, from the ten names limit
// keeps and its count, is the one every name left out would give.
func TestLimitKeepsTenNames(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 3, 12, 13, 500} {
		m := limit{max: 2}
		var left []string
		for i := range n {
			name := fmt.Sprintf("skill-%d", i)
			if !m.take(&Skill{Name: name}, name) {
				left = append(left, name)
			}
		}
		if len(m.left) > outfmt.MaxNames {
			t.Errorf("n=%d: %d names kept", n, len(m.left))
		}
		diags := m.truncated(nil, "/ws")
		if len(left) == 0 {
			if len(diags) != 0 {
				t.Errorf("n=%d: %d diagnostics, want none", n, len(diags))
			}
			continue
		}
		if len(diags) != 1 || !strings.HasSuffix(diags[0].Message, ": "+outfmt.Names(left)) ||
			!strings.Contains(diags[0].Message, fmt.Sprintf("; %d more", len(left))) {
			t.Errorf("n=%d: %+v, want the %d names %s", n, diags, len(left), outfmt.Names(left))
		}
	}
}
