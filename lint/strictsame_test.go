package lint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/skillsref"
	"github.com/skillet-go/skillet/skill"
)

// verdict is what one reader of strict mode decided about a skill folder:
// whether it loads, and the messages of the errors about its content.
type verdict struct {
	Accepted bool
	Reasons  []string
}

func newVerdict(reasons []string) verdict {
	reasons = slices.Clone(reasons)
	slices.Sort(reasons)
	if reasons == nil {
		reasons = []string{}
	}
	return verdict{Accepted: len(reasons) == 0, Reasons: reasons}
}

// listStrictVerdicts lists root as skillet list --strict and prompt
// --strict do (catalog.Options.Strict) and returns, per skill folder
// (relative to root), whether its file was accepted (parsed; it may still
// lose to another skill of the same name) and the content errors the
// listing reported for it. A folder dropped without a finding fails t.
func listStrictVerdicts(t *testing.T, root string) map[string]verdict {
	t.Helper()
	c, err := catalog.New(context.Background(), &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true, Strict: true, ExtraPaths: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	catx.ReadIgnored(c) // as lint does: folders under "_" and "." entries too
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string][]string{}
	for _, d := range l.Diagnostics {
		if d.Severity == skill.SeverityError && contentRule(d.Code) {
			reasons[d.Path] = append(reasons[d.Path], d.Message)
		}
	}
	out := map[string]verdict{}
	for _, cd := range candidates(l) {
		if cd.Flat {
			continue
		}
		rel, err := filepath.Rel(root, filepath.Dir(cd.Path))
		if err != nil {
			t.Fatal(err)
		}
		v := newVerdict(reasons[cd.Path])
		if v.Accepted != (cd.Skill != nil) {
			t.Errorf("list --strict: %s %s, with errors %q", rel, map[bool]string{true: "loads", false: "is dropped"}[cd.Skill != nil], v.Reasons)
		}
		out[filepath.ToSlash(rel)] = v
	}
	return out
}

// strictVerdicts checks that list --strict, lint --strict and validate
// decide alike on every skill folder under root, with the same messages,
// and returns the number of folders and of those accepted.
func strictVerdicts(t *testing.T, root string) (n, accepted int) {
	t.Helper()
	list := listStrictVerdicts(t, root)
	lintErrs, stray := strictErrors(t, root)
	for _, d := range stray {
		t.Errorf("lint --strict: a content finding that is not an error: %s", d)
	}
	for dir, l := range list {
		msgs := []string{}
		for _, m := range skillsref.Validate(filepath.Join(root, filepath.FromSlash(dir))) {
			msgs = append(msgs, skillsref.Brief(m))
		}
		v := newVerdict(msgs)
		if diff := cmp.Diff(v, l); diff != "" {
			t.Errorf("%s: list --strict differs from validate (-validate +list):\n%s", dir, diff)
		}
		le, ok := lintErrs[dir]
		if !ok {
			t.Errorf("%s: listed, but lint --strict did not check it", dir)
		} else if diff := cmp.Diff(v, newVerdict(le)); diff != "" {
			t.Errorf("%s: lint --strict differs from validate (-validate +lint):\n%s", dir, diff)
		}
		if v.Accepted {
			accepted++
		}
	}
	for dir := range lintErrs {
		if _, ok := list[dir]; !ok {
			t.Errorf("%s: checked by lint --strict, but not read by list --strict", dir)
		}
	}
	return len(list), accepted
}

// TestStrictModesAgree holds one strict mode: list --strict (and prompt
// --strict, which lists the same catalog), lint --strict and validate
// accept and reject exactly the same skill folders, with the same
// messages, on the published corpora and on generated folders.
func TestStrictModesAgree(t *testing.T) {
	t.Parallel()
	t.Run("generated", func(t *testing.T) {
		for _, seed := range []uint64{1, 2, 3} {
			root := filepath.Join(t.TempDir(), "gen")
			genStrictTree(t, root, seed, 300)
			n, acc := strictVerdicts(t, root)
			if n < 250 || acc < 25 || n-acc < 100 {
				t.Errorf("seed %d: %d folders, %d accepted: the generator no longer covers both verdicts", seed, n, acc)
			}
			t.Logf("seed %d: %d generated skill folders, %d accepted, the three readers agree", seed, n, acc)
		}
	})
	for _, c := range []struct{ name, dir string }{{"corpus", ""}, {"corpus-community", "corpus-community"}} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() {
				t.Skip("-short: the corpus is read in full runs only")
			}
			root := corpusDir(t)
			if c.dir != "" {
				root = filepath.Join(filepath.Dir(root), c.dir)
				if _, err := os.Stat(root); err != nil {
					t.Skipf("%s not found beside the corpus", root)
				}
			}
			n, acc := strictVerdicts(t, root)
			if n < 150 {
				t.Errorf("only %d skill folders read", n)
			}
			t.Logf("%s: %d skill folders, %d accepted, the three readers agree", c.name, n, acc)
		})
	}
}

// genStrictTree writes n skill folders under root from seed: random
// frontmatter shapes (none, unclosed, BOM, CRLF), field types (strings,
// block and flow lists and maps, numbers, block scalars, anchors, tags,
// tabs, duplicate keys, comments), names (matching the folder or not, in
// other letter cases, empty) and file names in several letter cases.
func genStrictTree(t *testing.T, root string, seed uint64, n int) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 23))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	bases := []string{"pdf-tools", "data-tool", "Data_Tool", "café-menu", "ab--c", "x", "release-notes", "-lead", "émoji-ok", "pdf-tools", "data-tool", "csv-export", "api-client", "notes"}
	for i := range n {
		dir := fmt.Sprintf("%s-%d", pick(bases...), i)
		name := func() string {
			switch r.IntN(20) {
			case 0:
				return "name: " + strings.ToUpper(dir)
			case 1:
				return "name: other-name"
			case 2:
				return "name:"
			case 3:
				return `name: ""`
			case 4:
				return "name: [" + dir + "]"
			case 5:
				return `name: "` + dir + `"`
			case 6:
				return "name: " + dir + "   "
			case 7:
				return ""
			}
			return "name: " + dir
		}()
		desc := pick(
			"description: Fills PDF forms. Use when the user has a form to fill.",
			"description: Fills PDF forms. Use when the user has a form to fill.",
			"description: Fills PDF forms. Use when the user has a form to fill.",
			"description: Fills PDF forms. Use when the user has a form to fill.",
			"description: Fills PDF forms. Use when the user has a form to fill.",
			"description: Fills PDF forms. Use when the user has a form to fill.",
			`description: "Quoted: with a colon"`,
			"description: Unquoted: with a colon",
			"description: Tracks issues #42 and more",
			"description: Tracks issues # a comment",
			"description: >-\n  Folded text\n  on two lines.",
			"description: |\n  Literal text\n  kept.",
			"description:",
			`description: ""`,
			"description: 42",
			"description: [a, b]",
			"description:\n  - a\n  - b",
			"description: "+strings.Repeat("long words ", 100),
			"description: &d Anchored text",
			"description: !!str Tagged text",
			"description:\tTabbed text",
			"",
		)
		var extra []string
		for range r.IntN(3) {
			extra = append(extra, pick(
				"metadata:\n  author: me\n  version: \"1.0\"",
				"metadata:\n  openclaw:\n    emoji: \"x\"\n    requires: [a]",
				"metadata:\n  openclaw:\n    emoji: x",
				"metadata: {author: me}",
				"metadata: plain",
				"metadata:\n  tags:\n    - a\n    - b",
				"allowed-tools: Read Write",
				"allowed-tools: [Read, Write, Edit, Bash]",
				"allowed-tools:\n  - Read\n  - Write",
				"compatibility: Needs Python 3",
				"compatibility: "+strings.Repeat("c", 520),
				"compatibility: [a]",
				"license: MIT",
				"version: 1.0",
				"when-to-use: When a PDF arrives",
				"author: someone",
				"name: again",
				"# a comment line",
			))
		}
		lines := slices.DeleteFunc(append([]string{name, desc}, extra...), func(s string) bool { return s == "" })
		r.Shuffle(len(lines), func(a, b int) { lines[a], lines[b] = lines[b], lines[a] })
		fm := strings.Join(lines, "\n") + "\n"
		body := pick("\n# Title\n\nDo the thing.\n", "", "\nBody.\n")
		var text string
		switch r.IntN(20) {
		case 0:
			text = "# No frontmatter\n\nDoes things.\n"
		case 1:
			text = "---\n" + fm // unclosed
		case 2:
			text = "\ufeff---\n" + fm + "---\n" + body
		case 3:
			text = strings.ReplaceAll("---\n"+fm+"---\n"+body, "\n", "\r\n")
		case 4:
			text = "\n---\n" + fm + "---\n" + body
		default:
			text = "---\n" + fm + "---\n" + body
		}
		file := "SKILL.md"
		if r.IntN(4) == 0 {
			file = pick("skill.md", "SKILL.MD", "Skill.md")
		}
		writeTree(t, root, map[string]string{dir + "/" + file: text})
		if r.IntN(20) == 0 {
			// A second file in another letter case.
			writeTree(t, root, map[string]string{dir + "/" + pick("skill.md", "SKILL.MD"): "---\nname: " + dir + "\ndescription: Second file.\n---\nBody.\n"})
		}
	}
}
