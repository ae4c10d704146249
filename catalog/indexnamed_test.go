package catalog

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkIndexNamed measures skillet show NAME over a warm persistent
// index, as the command does it: a new catalog reads the index narrowed
// to the name (listNamed) and loads the skill's body. B/op is what it
// allocates (the index's string table, 16 bytes a string, about 3.5
// strings a skill; the stamps a chunk at a time; the kept skill), which
// does not depend on the machine's load. BenchmarkIndexOneSkill is the same command over the whole listing
// (Load).
func BenchmarkIndexNamed(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ws := benchTree(b, n)
			c, l, _ := indexWriter(b, ws)
			name := l.Skills[len(l.Skills)/2].Name
			opts := c.opts
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				c, err := New(ctx, &opts)
				if err != nil {
					b.Fatal(err)
				}
				nl := c.listNamed(ctx, name, nil)
				if nl == nil || len(nl.Skills) != 1 {
					b.Fatal("the index did not answer")
				}
				if _, err := nl.Skills[0].Load(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
