package catalog

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// readBytes is the bytes this process has read with read(2) and pread(2)
// so far (rchar of /proc/self/io; stat(2) reads none).
func readBytes(tb testing.TB) uint64 {
	tb.Helper()
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		tb.Skip("no /proc/self/io:", err)
	}
	for line := range bytes.Lines(data) {
		if v, ok := bytes.CutPrefix(line, []byte("rchar: ")); ok {
			n, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return n
		}
	}
	tb.Fatal("no rchar in /proc/self/io")
	return 0
}

// BenchmarkIndexOneSkill measures a one-skill command over a warm
// persistent index (a new catalog loads one skill, as show does, in a
// process that finds the index written): besides the time, the bytes it
// reads (readB/op: the index file, then the skill's own SKILL.md) and
// allocates per skill of the tree, and the paths it stats to check the
// index (stats/op: one per stamp). The index is read whole today, so
// readB/op follows the tree's size (about 600 bytes per skill), and every
// skill file is statted: TestNameEditMovesNoFolderStamp is why fewer
// stats cannot prove the answer (docs/performance.md#persistent-index).
func BenchmarkIndexOneSkill(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ws := benchTree(b, n)
			c, l, _ := indexWriter(b, ws)
			name := l.Skills[len(l.Skills)/2].Name
			opts := c.opts
			ctx := context.Background()
			var read, stats uint64
			b.ReportAllocs()
			for b.Loop() {
				before := readBytes(b)
				c, err := New(ctx, &opts)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.Load(ctx, name); err != nil {
					b.Fatal(err)
				}
				if c.idx == nil || c.idx.listing == nil {
					b.Fatal("the index did not answer")
				}
				read = readBytes(b) - before
				stats = uint64(len(c.idx.stamps))
			}
			b.ReportMetric(float64(read), "readB/op")
			b.ReportMetric(float64(stats), "stats/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/skill")
		})
	}
}
