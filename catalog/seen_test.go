package catalog

import (
	"math/rand/v2"
	"testing"
)

// TestFileSeenIsTheMap holds fileSeen to the map of every file it
// replaces (the candidate of highest rank so far, the first of equal
// ones): random files on two devices (so that both the table and its map
// of other devices are used, and the table grows), offered in random
// ranks, settled at topRank, and asked after each step.
func TestFileSeenIsTheMap(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 1))
		f := newFileSeen()
		ref := map[[2]uint64]seenAt{}
		refOffer := func(k [2]uint64, i int, rank uint8) {
			if ref[k].rank < rank {
				ref[k] = seenAt{i, rank}
			}
		}
		files := 1 + r.IntN(3000)
		for i := range 5000 {
			k := [2]uint64{1 + uint64(r.IntN(files)), uint64(7 + r.IntN(2)/max(1, r.IntN(8)))}
			if r.IntN(3) == 0 {
				rank := uint8(1 + r.IntN(topRank))
				f.offer(k, i, rank)
				refOffer(k, i, rank)
				if got, want := f.loads(k, i), ref[k].i == i; got != want {
					t.Fatalf("seed %d step %d: loads(%v) = %v after offering rank %d, want %v", seed, i, k, got, rank, want)
				}
				continue
			}
			refOffer(k, i, topRank)
			if got, want := f.settle(k), ref[k].i == i; got != want {
				t.Fatalf("seed %d step %d: settle(%v) = %v, want %v", seed, i, k, got, want)
			}
			if f.best(k).rank != topRank {
				t.Fatalf("seed %d step %d: file %v settled at rank %d", seed, i, k, f.best(k).rank)
			}
		}
	}
}
