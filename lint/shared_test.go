package lint

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// sharedReadsOff runs f with the listing's reads not shared (each host
// listing and the reference validator read the files themselves, as
// before sharedReads).
func sharedReadsOff(f func()) {
	shareListingReads = false
	defer func() { shareListingReads = true }()
	f()
}

// reportBytes is the JSON and text reports of Run(opts).
func reportBytes(t *testing.T, opts *Options) []byte {
	t.Helper()
	r, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteText(&b, ""); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteCompat(&b, ""); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameShared requires the reports of opts with and without shared reads
// to be the same bytes.
func sameShared(t *testing.T, what string, opts func() *Options) {
	t.Helper()
	shared := reportBytes(t, opts())
	var own []byte
	sharedReadsOff(func() { own = reportBytes(t, opts()) })
	if !bytes.Equal(shared, own) {
		t.Errorf("%s: the report with the listing's reads shared differs from the one read again (%d and %d bytes):\n%s",
			what, len(shared), len(own), firstDiff(string(shared), string(own)))
	}
}

// TestSharedReadsAreTheReads: lint --compat and --target give the same
// report (JSON and text, byte for byte) whether the host listings and the
// reference validator take each file from lint's listing's read
// (sharedReads) or read it again: on files a profile reads differently (a
// byte order mark, CR line ends, a file over one profile's size limit and
// one over skillet's, a lower-case skill.md, a flat file, a symlinked
// SKILL.md, ignored drafts), on the random host layouts of
// TestCompatAgreesWithPresets (randomLayout), on a generated tree
// and, with targets outside the workspace, on the published corpus.
func TestSharedReadsAreTheReads(t *testing.T) {
	ws := t.TempDir()
	big := strings.Repeat("Body line.\n", 6000) // 66,000 bytes: over Kestrel's 64,000
	writeTree(t, ws, map[string]string{
		".claude/skills/bom/SKILL.md":   "\uFEFF---\nname: bom\ndescription: A byte order mark.\n---\n\nBody.\n",
		".claude/skills/crlf/SKILL.md":  "---\r\nname: crlf\r\ndescription: CR LF.\r\n---\r\n\r\nBody.\r\n",
		".claude/skills/cr/SKILL.md":    "---\rname: cr\rdescription: Lone CR.\r---\r\rBody.\r",
		"skills/big/SKILL.md":           "---\nname: big\ndescription: Larger than some hosts read.\n---\n\n" + big,
		"skills/huge/SKILL.md":          "---\nname: huge\ndescription: Larger than skillet reads.\n---\n\n" + big + big + "\xff\n", // not UTF-8 past 64,000 bytes
		".agents/skills/lower/skill.md": "---\nname: lower\ndescription: Lower case.\n---\n",
		"skills/flat.md":                "---\nname: flat\ndescription: Flat.\n---\n\nBody.\n",
		"skills/_draft/SKILL.md":        "---\nname: draft\ndescription: Ignored.\n---\n",
		".codex/skills/tabs/SKILL.md":   "---\nname: tabs\ndescription: Tabs.\nmetadata:\n\tkey: value\n---\n",
		".gemini/skills/dup/SKILL.md":   "---\nname: dup\nname: dup2\ndescription: Twice.\n---\n",
		"skills/bad/SKILL.md":           "---\nname: bad\ndescription: a: b: c\n---\n",
		"skills/invalid/SKILL.md":       "---\nname: invalid\ndescription: \xff\xfe\n---\n",
		// Its frontmatter closes past 64,000 bytes: a read of the first
		// 64,000 finds no closing fence.
		"skills/longfm/SKILL.md": "---\nname: longfm\ndescription: " + strings.Repeat("a", 65000) + "\n---\n\nBody.\n",
	})
	if err := os.Symlink(filepath.Join(ws, "skills", "bad", "SKILL.md"), filepath.Join(ws, ".claude", "skills", "crlf", "linked.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, ".github", "skills", "link"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, "skills", "big", "SKILL.md"), filepath.Join(ws, ".github", "skills", "link", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	for _, max := range []int{0, 100000} {
		sameShared(t, "workspace", func() *Options {
			return &Options{Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, MaxSkillBytes: max}, Compat: true}
		})
		sameShared(t, "workspace, --target", func() *Options {
			return &Options{Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, MaxSkillBytes: max}, Hosts: []string{"claude", "kestrel"}}
		})
		sameShared(t, "workspace as a target", func() *Options {
			return &Options{Catalog: &catalog.Options{Workspace: empty, NoUser: true, NoConfigFile: true, MaxSkillBytes: max},
				Targets: []string{ws}, Compat: true, Hosts: []string{"codex"}}
		})
	}
	seeds := 30
	if testing.Short() {
		seeds = 10
	}
	for seed := range uint64(seeds) {
		sb, err := randomLayout(seed).Materialize(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("HOME", sb.Home)
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(sb.Home, ".config"))
		sameShared(t, "random layout", func() *Options {
			return &Options{Catalog: &catalog.Options{Workspace: sb.Cwd, NoConfigFile: true}, Compat: true}
		})
	}
	gen := t.TempDir()
	if _, err := tree.Generate(filepath.Join(gen, ".claude", "skills"), &tree.Options{N: 60, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	sameShared(t, "generated tree", func() *Options {
		return &Options{Catalog: &catalog.Options{Workspace: gen, NoUser: true, NoConfigFile: true}, Compat: true}
	})
	if dir := testcorpus.Find(); dir != "" && !testing.Short() {
		sameShared(t, "corpus as targets", func() *Options {
			return &Options{Catalog: &catalog.Options{Workspace: empty, NoUser: true, NoConfigFile: true},
				Targets: testcorpus.Roots(dir), Compat: true}
		})
	}
}
