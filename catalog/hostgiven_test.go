package catalog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
)

// TestHostSearchGivenScribbled: the host listings of lint --compat that
// take each file from a listing's read (hostSearchAll: Give, Finish) keep
// nothing of the bytes given, which the listing's reader reuses once
// Give returns: on generated trees of seeded random content (a byte
// order mark, CR LF, lone CR, bytes that are not UTF-8, empty files,
// files over a profile's or skillet's size limit, long names and
// descriptions), the bytes are overwritten as soon as Give returns, and
// every profile's files are still those of hostFilesAll, which reads
// every file itself.
func TestHostSearchGivenScribbled(t *testing.T) {
	t.Parallel()
	seeds := 8
	if testing.Short() {
		seeds = 3
	}
	ps := profile.All()
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			opts := hostShareTree(t, 40)
			rng := rand.New(rand.NewPCG(seed, 9))
			scrambleSkillFiles(t, rng, opts.ExtraPaths[0])
			want, err := hostFilesAll(context.Background(), ps, opts)
			must(t, err)
			hr, err := hostSearchAll(context.Background(), ps, opts)
			must(t, err)
			c, err := New(context.Background(), opts)
			must(t, err)
			var given atomic.Int64
			c.onParsed = func(p catalogx.Parsed) {
				if hr.Give(&p) {
					given.Add(1)
				}
				for i := range p.Data {
					p.Data[i] = "\xaa-:\n"[i%4]
				}
			}
			_, err = c.List(context.Background())
			must(t, err)
			got := hr.Finish()
			if given.Load() == 0 {
				t.Fatal("no file was given: the test proves nothing")
			}
			for i := range want {
				if !reflect.DeepEqual(want[i].Files, got[i].Files) {
					for j := range min(len(want[i].Files), len(got[i].Files)) {
						if !reflect.DeepEqual(want[i].Files[j], got[i].Files[j]) {
							t.Fatalf("%s: file %d differs with the given bytes overwritten:\nwant %+v\n got %+v", ps[i].Name, j, want[i].Files[j], got[i].Files[j])
						}
					}
					t.Fatalf("%s: %d files, want %d", ps[i].Name, len(got[i].Files), len(want[i].Files))
				}
			}
		})
	}
}

// scrambleSkillFiles rewrites about half the skill files under dir with
// seeded hostile content, keeping each one's name.
func scrambleSkillFiles(t *testing.T, rng *rand.Rand, dir string) {
	t.Helper()
	var files []string
	must(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == SkillFile {
			files = append(files, p)
		}
		return err
	}))
	for _, p := range files {
		name := filepath.Base(filepath.Dir(p))
		desc := "Does " + name + "."
		body := "\nBody.\n"
		nl := "\n"
		pre := ""
		switch rng.IntN(12) {
		case 0:
			pre = "\uFEFF"
		case 1:
			nl = "\r\n"
		case 2:
			nl = "\r"
		case 3:
			desc = "bad \xff\xfe bytes"
		case 4:
			must(t, os.WriteFile(p, nil, 0o644))
			continue
		case 5:
			body = strings.Repeat("Body line.\n", 6000+rng.IntN(7000))
		case 6:
			desc = strings.Repeat("long description ", 100+rng.IntN(4000))
		case 7:
			name = strings.Repeat("n", 60+rng.IntN(200))
		case 8:
			desc = "a: b: c"
		}
		if rng.IntN(2) == 0 {
			continue
		}
		text := pre + "---" + nl + "name: " + name + nl + "description: " + desc + nl + "---" + nl + body
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
}
