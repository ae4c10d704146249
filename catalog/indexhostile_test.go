package catalog

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// TestIndexStreamHostileContent holds the index written while Each lists
// to List's, byte for byte but the checksum, and to a cold listing
// (streamCheck), on generated trees of seeded hostile content
// (scrambleSkillFiles) with folders whose names are not UTF-8, with and
// without maxSkills and a size limit cutting the listing.
func TestIndexStreamHostileContent(t *testing.T) {
	t.Parallel()
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			root := filepath.Join(e.ws, ".agents")
			_, err := tree.Generate(root, &tree.Options{N: 40, Seed: seed + 1})
			must(t, err)
			rng := rand.New(rand.NewPCG(seed, 11))
			scrambleSkillFiles(t, rng, root)
			for _, name := range []string{"caf\xe9", "\xff\xfe", "a\x01b", "x\u00e9\u0301"} {
				if rng.IntN(2) == 0 {
					writeTree(t, filepath.Join(root, "skills", name), map[string]string{SkillFile: skillMD(name)})
				}
			}
			age(t, e.ws, e.home)
			o := []Options{{}, {MaxSkills: 5}, {MaxSkillBytes: 2000}}[seed%3]
			var names []string
			entries, err := os.ReadDir(filepath.Join(root, "skills"))
			must(t, err)
			for range 3 {
				names = append(names, entries[rng.IntN(len(entries))].Name())
			}
			// The narrowed, search and brief reads of the written index
			// are checked after the first name only: each name's index is
			// held byte for byte (but the checksum) to List's, so the
			// reads of the others would read the same bytes.
			for i, name := range names {
				streamed := streamCheck(t, e, o, name, i == 0)
				if want := listIndexBytes(t, e, o); string(streamed[:len(streamed)-indexSumSize]) != string(want) {
					t.Fatalf("%q: the index written while listing is not List's (%d bytes against %d)", name, len(streamed), len(want)+indexSumSize)
				}
			}
		})
	}
}
