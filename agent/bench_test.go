package agent_test

import (
	"context"
	"testing"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
)

// BenchmarkBlockCorpus renders the XML block of the whole corpus (every
// skill listed: maxSkills lifted) and reports its size in characters and
// in estimated tokens (bytes/4), with the default 240-character
// description cut and without it:
//
//	go test ./agent -run XXX -bench BlockCorpus
func BenchmarkBlockCorpus(b *testing.B) {
	dir := corpusDir(b)
	c, err := catalog.New(context.Background(), &catalog.Options{
		Workspace: b.TempDir(), NoUser: true, NoConfigFile: true, ExtraPaths: []string{dir}, MaxSkills: 1 << 20,
	})
	if err != nil {
		b.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		max  int
	}{{"cut240", 0}, {"nocut", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			var blk *agent.Block
			for b.Loop() {
				blk, err = agent.RenderListing(l, &agent.BlockOptions{MaxDescriptionChars: bc.max})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(blk.Entries)), "skills")
			b.ReportMetric(float64(blk.Chars), "chars")
			b.ReportMetric(float64(blk.Tokens()), "tokens")
		})
	}
}

// BenchmarkToolLoad measures one load call on the examples (a List that
// re-reads nothing, the body read, the file sample).
func BenchmarkToolLoad(b *testing.B) {
	tool := agent.NewTool(examplesCatalog(b), nil)
	ctx := context.Background()
	args := []byte(`{"name":"release-checklist"}`)
	for b.Loop() {
		if r := tool.Call(ctx, args); r.IsError {
			b.Fatal(r.Text)
		}
	}
}
