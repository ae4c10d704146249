package catalog

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestYAMLMemoIsHostParse: the verdicts on one file's bytes that share its
// texts and YAML parses (yamlMemo, as readPending shares them) are each
// profile's own reading, whichever profile made a text first. The profiles
// are every built-in one and variants whose rules give another text of the
// same bytes (tabs as spaces, lone CRs kept, the closing fence anywhere, a
// byte order mark refused or read past); the
// files are ones those rules read apart. It fails when the memo answers a
// text with another text's parse.
func TestYAMLMemoIsHostParse(t *testing.T) {
	t.Parallel()
	var ps []*profile.Profile
	for _, p := range profile.All() {
		ps = append(ps, p)
		for _, set := range []func(*profile.Parse){
			func(pp *profile.Parse) { pp.Tabs = "spaces" },
			func(pp *profile.Parse) { pp.LineEnds = "lf" },
			func(pp *profile.Parse) { pp.LineEnds = "" },
			func(pp *profile.Parse) { pp.FenceAnywhere = !pp.FenceAnywhere },
			func(pp *profile.Parse) { pp.YAML, pp.DuplicateKeys = "repair", "last" },
			func(pp *profile.Parse) { pp.BOM = map[bool]string{true: "", false: "drop"}[pp.BOM == "drop"] },
		} {
			q := *p
			set(&q.Parse)
			ps = append(ps, &q)
		}
	}
	files := []string{
		"---\nname: a\ndescription: d\n---\n\nBody.\n",
		"---\r\nname: a\r\ndescription: d\r\n---\r\nBody.\r\n",
		"---\nname: a\rdescription: d\n---\nBody.\n",
		"---\nname: a\ndescription: d\nmeta:\n\tk: v\n---\n# Head\n",
		"---\nname: a\ndescription: |\n\td\n---\n",
		"---\nname: a\ndescription: d\n--- trailing\nmore: x\n---\nBody.\n",
		"---\nname: a\ndescription: d ---\nx: 1\n---\n",
		"\ufeff---\nname: a\ndescription: d\n---\n",
		"---\nname: a\nname: b\ndescription: d\ndescription: e\n---\n",
		"---\nname: [a\ndescription: d: e\n---\n",
		"---\nname: a\ndescription: |\n  d\n---\n",
		"# No frontmatter\n\nJust text.\n",
		"---\nname: a\ndescription: d\nargument-hint: [q]\n---\n",
		"\ufeff---\r\nname: a\rdescription: d\r\n---\r\n",
		"---\nname: \xff\ndescription: d\n---\n",
	}
	orders := [][]*profile.Profile{ps, slices.Clone(ps)}
	slices.Reverse(orders[1])
	for fi, f := range files {
		for oi, order := range orders {
			memo := &yamlMemo{}
			for _, p := range order {
				got := hostParseMemo(p, []byte(f), "/x/fm/SKILL.md", "fm", false, memo)
				want := hostParse(p, []byte(f), "/x/fm/SKILL.md", "fm", false)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("file %d, order %d, profile %s (%+v): with the memo %+v, alone %+v", fi, oi, p.Name, p.Parse, got, want)
				}
			}
			if fi == 3 && len(memo.parses) < 2 {
				t.Errorf("file %d: %d texts parsed; the tab rules should make two", fi, len(memo.parses))
			}
		}
	}
}

// TestYAMLMemoShares: the built-in profiles' readings of a plain skill
// file parse its YAML once or twice in all, not once each (the win of
// yamlMemo in lint --compat: about a quarter of its CPU was these parses).
func TestYAMLMemoShares(t *testing.T) {
	t.Parallel()
	memo := &yamlMemo{}
	all := profile.All()
	for _, p := range all {
		hostParseMemo(p, []byte("---\nname: a\ndescription: d\n---\n\nBody.\n"), "/x/a/SKILL.md", "a", false, memo)
	}
	if n := len(memo.parses); n == 0 || n > 2 {
		t.Errorf("%d profiles parsed the file's YAML %d times, want 1 or 2", len(all), n)
	}
}

// hostMemoFile is a skill file of the published corpus's shape: a short
// frontmatter and a 16 KB body.
func hostMemoFile() []byte {
	body := strings.Repeat("Run `scripts/check.sh` before the release; see [the guide](references/guide.md).\n", 200)
	return []byte("---\nname: fm\ndescription: Checks a release. Use when a release is cut.\n---\n\n" + body)
}

// hostMemoBytes is what reading data through every built-in profile with
// one memo allocates, in bytes, less what each profile's reading keeps
// whatever the file's size (measured on a file without a body).
func hostMemoBytes(data []byte) float64 {
	all := profile.All()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 20
	for range runs {
		memo := &yamlMemo{}
		for _, p := range all {
			hostParseMemo(p, data, "/x/fm/SKILL.md", "fm", false, memo)
		}
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / runs
}

// TestYAMLMemoCopiesBodyOnce: the eleven profiles' readings of one file
// (no byte order mark, no CR) copy its body about four times in all: into
// the text every rule reads, into the text of the closing fence anywhere
// (Claude Code's, one line longer), and into the bytes of the two YAML
// parses of those texts. Each rule on byte order marks and line ends made
// its own text and each profile whose fences are not skillet's its own
// "---\n" + frontmatter + "\n---\n" + body: 10.45 copies.
func TestYAMLMemoCopiesBodyOnce(t *testing.T) {
	data := hostMemoFile()
	head := data[:bytes.Index(data, []byte("\n---\n"))+5]
	copies := (hostMemoBytes(data) - hostMemoBytes(head)) / float64(len(data)-len(head))
	t.Logf("%.2f copies of the body", copies)
	if copies > 5 {
		t.Errorf("the profiles' readings of one file copied its body %.2f times, want at most 5", copies)
	}
}

// BenchmarkHostParseAll reads a 16 KB skill file through every built-in
// profile with one memo, as readPending does for lint --compat.
//
//	go test ./catalog -run '^$' -bench HostParseAll -benchmem
func BenchmarkHostParseAll(b *testing.B) {
	data := hostMemoFile()
	all := profile.All()
	b.ReportAllocs()
	for b.Loop() {
		memo := &yamlMemo{}
		for _, p := range all {
			hostParseMemo(p, data, "/x/fm/SKILL.md", "fm", false, memo)
		}
	}
}

// TestYAMLMemoParseKeepsText: yamlMemo.parse gives skill.Parse the text's
// own bytes, not a copy, so skill.Parse must read them only: each text
// (hand-made ones that the parser repairs, normalises or refuses, and the
// corpus's files when it is there) is the same after the parse, and the
// parse is that of a copy.
func TestYAMLMemoParseKeepsText(t *testing.T) {
	t.Parallel()
	texts := []string{
		"---\nname: a\ndescription: d\n---\n\nBody.\n",
		"---\r\nname: a\r\ndescription: d\r\n---\r\nBody.\r\n",
		"---\rname: a\rdescription: d\r---\rBody.\r",
		"---\nname: a\ndescription: d: e\nmetadata:\n  k: [1, 2]\n---\n",
		"---\nname: A_b\ndescription: " + strings.Repeat("long ", 300) + "\n---\n",
		"---\nname: a\ndescription: d\nmeta:\n\tk: v\n---\n# Head\n",
		"\ufeff---\nname: a\ndescription: d\n---\n",
		"---\nname: [a\ndescription: d: e\n---\n",
		"---\nname: \xff\ndescription: d\n---\n",
	}
	if dir := testcorpus.Find(); dir != "" {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.EqualFold(d.Name(), "SKILL.md") {
				if b, err := os.ReadFile(p); err == nil {
					texts = append(texts, string(b))
				}
			}
			return nil
		})
	}
	for i, text := range texts {
		src := strings.Clone(text) // on the heap, where a write would go unnoticed
		memo := &yamlMemo{}
		s, diags := memo.parse(src, "/x/fm/SKILL.md", false)
		if src != text {
			t.Fatalf("text %d: skill.Parse wrote into the text it was given", i)
		}
		ws, wdiags := skill.Parse([]byte(text), &skill.Options{Path: "/x/fm/SKILL.md", KeepRejected: true, SkipBody: true, MaxDescriptionChars: -1})
		if !reflect.DeepEqual(s, ws) || !reflect.DeepEqual(diags, wdiags) {
			t.Fatalf("text %d: the memo's parse differs from the parse of a copy", i)
		}
	}
	if len(texts) < 100 {
		t.Logf("%d texts (the corpus is not here)", len(texts))
	}
}

// TestYamlMemoFolder: the memo's folder names, asked in any order and
// again, are skill.DefaultName's.
func TestYamlMemoFolder(t *testing.T) {
	m := &yamlMemo{}
	paths := []string{"/r/a/SKILL.md", "/r/b.md", "/r/a/SKILL.md", "/r/Tool.md", "/r/x/y/skill.md"}
	for range 2 {
		for _, p := range paths {
			for _, flat := range []bool{false, true} {
				if got, want := m.folder(p, flat), skill.DefaultName(p, flat); got != want {
					t.Errorf("folder(%q, %v) = %q, want %q", p, flat, got, want)
				}
			}
		}
	}
}

// FuzzNamePatternMatch holds namePatternMatch to the regular expression
// of every name pattern of the profiles, and wants it to know them all.
func FuzzNamePatternMatch(f *testing.F) {
	for _, s := range []string{"", "pdf", "pdf-tools", "PDF", "a--b", "-a", "a-", "a.b", "a_b", "a:b", "é", "Ünï-ç0de",
		"\xff", "\ufffd", "a\n", "\na", "a b", "٣", "Ⅻ", "a\u0301"} {
		f.Add(s)
	}
	var pats []string
	for _, p := range profile.All() {
		if p.Names.Pattern != "" {
			pats = append(pats, p.Names.Pattern)
		}
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, pat := range pats {
			re, err := profile.Pattern(pat)
			if err != nil {
				t.Fatal(err)
			}
			ok, known := namePatternMatch(pat, name)
			if !known {
				t.Fatalf("namePatternMatch does not know the pattern %s", pat)
			}
			if want := re.MatchString(name); ok != want {
				t.Errorf("namePatternMatch(%s, %q) = %v, the expression says %v", pat, name, ok, want)
			}
		}
	})
}

// TestTextLenOfJoin: textLen of an ASCII prefix joined to a text is the
// prefix's length and the text's, in both units, invalid UTF-8 and
// characters beyond U+FFFF included (applyBudget counts the two apart).
func TestTextLenOfJoin(t *testing.T) {
	for _, s := range []string{"", "pdf", "é", "\xff", "\xe2\x80", "\x80abc", "😀 x", "a\U0010FFFF", "\xf0\x9f"} {
		for _, pre := range []string{"- ", ": "} {
			for _, units := range []string{"", "utf16"} {
				if got, want := len(pre)+textLen(units, s), textLen(units, pre+s); got != want {
					t.Errorf("textLen(%q, %q+%q) = %d, apart %d", units, pre, s, want, got)
				}
			}
		}
	}
}
