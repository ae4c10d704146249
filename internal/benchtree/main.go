// Command benchtree writes a tree of generated skills for benchmarks:
//
//	go run ./internal/benchtree -n 10000 -out DIR [-seed 1] [-broken 3]
//
// The skills go under DIR/skills, so "skillet list -w DIR" finds them. The
// same seed always writes the same tree.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

func main() {
	n := flag.Int("n", 1000, "number of skills")
	out := flag.String("out", "", "output folder (required)")
	seed := flag.Uint64("seed", 1, "random seed")
	broken := flag.Int("broken", 3, "percent of broken skills (negative for none)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: benchtree -n N -out DIR [-seed S] [-broken PCT]")
		os.Exit(2)
	}
	st, err := tree.Generate(*out, &tree.Options{N: *n, Seed: *seed, BrokenPercent: *broken})
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtree:", err)
		os.Exit(1)
	}
	fmt.Printf("%d skills (%d broken, %d in grouping folders), %d bytes of SKILL.md, %d bundled files in %s\n",
		st.Skills, st.Broken, st.GroupedSkills, st.SkillBytes, st.BundledFiles, *out)
}
