package catalog

import (
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
)

// TestHostText holds the first step of a host's reading: the byte order
// mark, UTF-8 and line ends.
func TestHostText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		bom, ends string
		data      string
		want, why string
	}{
		{name: "crlf", data: "a\r\nb\r\n", want: "a\nb\n"},
		{name: "lone cr read", data: "a\rb", want: "a\nb"},
		{name: "lone cr kept", ends: "lf", data: "a\rb\r\n", want: "a\rb\n"},
		{name: "bom stripped", data: "\xEF\xBB\xBF---\n", want: "---\n"},
		{name: "bom refused", bom: "drop", data: "\xEF\xBB\xBF---\n", why: "byte order mark"},
		{name: "not utf-8", data: "a\xffb", why: "not UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := hostText(&profile.Parse{BOM: tt.bom, LineEnds: tt.ends}, []byte(tt.data))
			if tt.why != "" {
				if !strings.Contains(why, tt.why) || got != "" {
					t.Fatalf("hostText = %q, %q; want a refusal naming %q", got, why, tt.why)
				}
				return
			}
			if got != tt.want || why != "" {
				t.Fatalf("hostText = %q, %q; want %q", got, why, tt.want)
			}
		})
	}
}

// TestHostNameRules holds the name step's two halves: Names.Normalize and
// the rules that refuse a name.
func TestHostNameRules(t *testing.T) {
	t.Parallel()
	norm := []struct{ mode, in, want string }{
		{"", "My Skill", "My Skill"},
		{"spaces", " my  big\tskill ", "my-big-skill"},
		{"path-chars", `a:b/c\d*e`, "a-b-c-d-e"},
		{"kebab", "My Skill", "my-skill"},
	}
	for _, tt := range norm {
		if got := normalizeHostName(tt.mode, tt.in); got != tt.want {
			t.Errorf("normalizeHostName(%q, %q) = %q, want %q", tt.mode, tt.in, got, tt.want)
		}
	}
	refuse := []struct {
		n            profile.Naming
		name, folder string
		why          string // "" when loaded
	}{
		{profile.Naming{MaxChars: 3}, "abcd", "x", "4 characters, over its limit of 3"},
		{profile.Naming{MaxChars: 3}, "äöü", "x", ""},
		{profile.Naming{Pattern: "^[a-z]+$"}, "Ab", "x", "breaks its rule"},
		{profile.Naming{Pattern: "^[a-z]+$"}, "ab", "x", ""},
		{profile.Naming{MatchFolder: true}, "ab", "cd", `differs from the folder name "cd"`},
		{profile.Naming{MatchFolder: true}, "ab", "ab", ""},
	}
	for _, tt := range refuse {
		why := hostNameReason(&tt.n, tt.name, tt.folder)
		if (tt.why == "") != (why == "") || !strings.Contains(why, tt.why) {
			t.Errorf("hostNameReason(%+v, %q, %q) = %q, want %q", tt.n, tt.name, tt.folder, why, tt.why)
		}
	}
}

// TestHostMissingDescription holds what stands in for a missing
// description, each policy alone.
func TestHostMissingDescription(t *testing.T) {
	t.Parallel()
	body := "\n# Title\n\nFirst prose line.\nSecond.\n"
	tests := []struct {
		policy, empty string
		hasDesc       bool
		want          string
		refused       bool
	}{
		{policy: "drop", refused: true},
		{policy: "drop", empty: "load", hasDesc: true, want: ""},
		{policy: "empty", want: ""},
		{policy: "first-line", want: "Title"},
		{policy: "body-text", want: "First prose line. Second."},
		{policy: "body", want: "First prose line."},
	}
	for _, tt := range tests {
		h := &hostParser{p: &profile.Profile{Parse: profile.Parse{Description: tt.policy, EmptyDescription: tt.empty}}, body: body}
		h.f.hasDesc = tt.hasDesc
		got, ok := h.missingDescription()
		if ok == tt.refused || got != tt.want || (tt.refused && h.out.reason == "") {
			t.Errorf("%s (empty %q, key given %v): %q, %v (reason %q); want %q, refused %v", tt.policy, tt.empty, tt.hasDesc, got, ok, h.out.reason, tt.want, tt.refused)
		}
	}
}

// TestHostUnits holds Disclosure.Units: a character beyond U+FFFF counts
// two UTF-16 units, and a cut inside one keeps its first half as U+FFFD.
func TestHostUnits(t *testing.T) {
	t.Parallel()
	s := "ab😀cd" // 5 code points, 6 UTF-16 units
	if n := textLen("", s); n != 5 {
		t.Errorf("code points: %d, want 5", n)
	}
	if n := textLen("utf16", s); n != 6 {
		t.Errorf("UTF-16 units: %d, want 6", n)
	}
	tests := []struct {
		units string
		max   int
		want  string
	}{
		{"", 3, "ab😀"},
		{"utf16", 2, "ab"},
		{"utf16", 3, "ab\uFFFD"},
		{"utf16", 4, "ab😀"},
		{"utf16", 9, s},
	}
	for _, tt := range tests {
		if got := cutText(tt.units, s, tt.max); got != tt.want {
			t.Errorf("cutText(%q, %d) = %q, want %q", tt.units, tt.max, got, tt.want)
		}
	}
}

// TestHostBudget holds the greedy budget: name-only lines counted first,
// a description that does not fit is left out while a later, shorter one
// still fits.
func TestHostBudget(t *testing.T) {
	t.Parallel()
	vs := []hostVerdict{
		{Verdict: catalogxVerdict("a", strings.Repeat("x", 10))},
		{Verdict: catalogxVerdict("b", strings.Repeat("y", 30))},
		{Verdict: catalogxVerdict("c", "zz")},
		{Verdict: catalogxVerdict("d", "")},
	}
	// Name lines: "- a\n" ... 4 each = 16; "a" costs 12, "b" 32, "c" 4.
	applyBudget(&profile.Disclosure{BudgetChars: 16 + 12 + 4 + 5}, vs)
	var got []string
	for _, v := range vs {
		got = append(got, v.Name+"="+v.Description)
	}
	want := "a=xxxxxxxxxx b= c=zz d="
	if strings.Join(got, " ") != want {
		t.Errorf("budget kept %q, want %q", strings.Join(got, " "), want)
	}
	if len(vs[1].Changes) != 1 || len(vs[0].Changes) != 0 {
		t.Errorf("changes: %q / %q; want one for b only", vs[0].Changes, vs[1].Changes)
	}
}

// TestHostFrontmatterRules holds the YAML rules a host profile adds:
// the last of duplicate keys, fields that must be strings, tabs read as
// spaces, the final line break, when_to_use appended, a fallback cut.
func TestHostFrontmatterRules(t *testing.T) {
	t.Parallel()
	base := func() *profile.Profile {
		return &profile.Profile{Names: profile.Naming{Source: "field"},
			Parse: profile.Parse{BOM: "strip", NoFrontmatter: "load", YAML: "repair", BrokenYAML: "empty", Description: "first-line", KeepSpace: true}}
	}
	tests := []struct {
		name     string
		set      func(p *profile.Profile)
		file     string
		wantName string
		wantDesc string
		refused  string
	}{
		{"duplicate first", nil, "---\nname: a\nname: b\ndescription: d\n---\n", "a", "d", ""},
		{"duplicate last", func(p *profile.Profile) { p.Parse.DuplicateKeys = "last" }, "---\nname: a\ndescription: d\nname: b\ndescription: e\n---\n", "b", "e", ""},
		{"argument-hint list", func(p *profile.Profile) { p.Parse.StringFields = []string{"argument-hint"} }, "---\nname: a\ndescription: d\nargument-hint: [query]\n---\n", "", "", "argument-hint is not a string (a list)"},
		{"argument-hint text", func(p *profile.Profile) { p.Parse.StringFields = []string{"argument-hint"} }, "---\nname: a\ndescription: d\nargument-hint: query\n---\n", "a", "d", ""},
		{"tab map broken", nil, "---\nname: a\ndescription: d\nmeta:\n\tk: v\n---\n# Head\n", "fm", "Head", ""},
		{"tab map as spaces", func(p *profile.Profile) { p.Parse.Tabs = "spaces" }, "---\nname: a\ndescription: d\nmeta:\n\tk: v\n---\n# Head\n", "a", "d", ""},
		{"final break kept", nil, "---\nname: a\ndescription: |\n  d\n---\n", "a", "d\n", ""},
		{"final break dropped", func(p *profile.Profile) { p.Parse.FinalBreak = "drop" }, "---\nname: a\ndescription: |\n  d\n---\n", "a", "d", ""},
		{"final break of an inner key", func(p *profile.Profile) { p.Parse.FinalBreak = "drop" }, "---\ndescription: |\n  d\nname: a\n---\n", "a", "d\n", ""},
		{"when_to_use", func(p *profile.Profile) { p.Parse.WhenToUse = " - " }, "---\nname: a\ndescription: d\nwhen_to_use: w\n---\n", "a", "d - w", ""},
		{"empty name dropped", func(p *profile.Profile) { p.Names.EmptyName = "drop" }, "---\nname: \"\"\ndescription: d\n---\n", "", "", "its name is empty"},
		{"empty name kept", func(p *profile.Profile) { p.Names.EmptyName, p.Names.Required = "keep", true }, "---\nname: \"\"\ndescription: d\n---\n", "", "d", ""},
		{"empty name: folder", nil, "---\nname: \"\"\ndescription: d\n---\n", "fm", "d", ""},
		{"fallback cut", func(p *profile.Profile) {
			p.Parse.FallbackChars, p.Parse.FallbackSuffix, p.Parse.OneLine = 8, "...", true
		}, "x\r\ry long line\n", "fm", "x y ...", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := base()
			if tt.set != nil {
				tt.set(p)
			}
			p.Parse.LineEnds = "lf"
			res := hostParse(p, []byte(tt.file), "/x/fm/SKILL.md", "fm", false)
			if tt.refused != "" {
				if !strings.Contains(res.reason, tt.refused) {
					t.Fatalf("reason %q, want one naming %q", res.reason, tt.refused)
				}
				return
			}
			if res.reason != "" || res.name != tt.wantName || res.description != tt.wantDesc {
				t.Fatalf("got %q %q (reason %q), want %q %q", res.name, res.description, res.reason, tt.wantName, tt.wantDesc)
			}
		})
	}
}

// TestHostOrderByName holds Discovery.Order "name": x/ comes before
// x-of-the-wise/, which sorts first as a path.
func TestHostOrderByName(t *testing.T) {
	t.Parallel()
	mk := func() []*hostCand {
		return []*hostCand{{path: "/r/x/SKILL.md"}, {path: "/r/x-of-the-wise/SKILL.md"}, {path: "/r/a/b/SKILL.md"}}
	}
	for _, tt := range []struct{ order, want string }{
		{"", "/r/a/b/SKILL.md /r/x-of-the-wise/SKILL.md /r/x/SKILL.md"},
		{"name", "/r/a/b/SKILL.md /r/x/SKILL.md /r/x-of-the-wise/SKILL.md"},
	} {
		cs := mk()
		sortCandidates(tt.order, "/r", cs)
		var got []string
		for _, c := range cs {
			got = append(got, c.path)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("order %q: %s, want %s", tt.order, strings.Join(got, " "), tt.want)
		}
	}
}

// catalogxVerdict is a loaded verdict showing name and description.
func catalogxVerdict(name, desc string) catalogx.Verdict {
	return catalogx.Verdict{Loaded: true, Name: name, Description: desc}
}

// Gemini CLI reads a frontmatter js-yaml refuses, or whose name or
// description is not a string, line by line: the last name: and
// description: lines win, quotes are kept, indented lines continue a
// description; without both lines the file is dropped.
func TestHostLastLines(t *testing.T) {
	t.Parallel()
	p, ok := profile.Lookup("gemini")
	if !ok {
		t.Fatal("no gemini profile")
	}
	tests := []struct {
		name, file      string
		wantName, wantD string
		refused         bool
	}{
		{"valid YAML is YAML", "---\nname: a\ndescription: |\n  one\n  two\n---\n", "a", "one\ntwo\n", false},
		{"a key twice: the last line", "---\nname: first\nname: second\ndescription: d\n---\n", "second", "d", false},
		{"number name: its text", "---\nname: 42\ndescription: d\n---\n", "42", "d", false},
		{"boolean description", "---\nname: a\ndescription: true\n---\n", "a", "true", false},
		{"quotes kept, continuation joined", "---\nname: 'q'\ndescription: x: y\n  more\n\n   last\nname: a\n---\n", "a", "x: y more", false},
		{"indented keys count", "---\nname: [1]\nmeta:\n  description: inner\n---\n", "[1]", "inner", false},
		{"no description line", "---\nname: [1]\n---\n", "", "", true},
	}
	for _, tt := range tests {
		got := hostParse(p, []byte(tt.file+"Body.\n"), "/r/x/SKILL.md", "x", false)
		if (got.reason != "") != tt.refused || (!tt.refused && (got.name != tt.wantName || got.description != tt.wantD)) {
			t.Errorf("%s: name %q description %q reason %q; want %q %q refused %v", tt.name, got.name, got.description, got.reason, tt.wantName, tt.wantD, tt.refused)
		}
	}
}

// The fences of the JavaScript hosts: Qwen Code's are exactly ---, Gemini
// CLI's closing one only starts with ---, pi's both only start with ---.
func TestSplitFencesMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode, text, fm string
		ok             bool
	}{
		{"exact", "---\na: 1\n---\nbody", "a: 1", true},
		{"exact", "--- \na: 1\n---\n", "", false},
		{"exact", "---\na: 1\n--- \nb: 2\n---\n", "a: 1\n--- \nb: 2", true},
		{"exact", "---\na: 1\n---", "a: 1", true},
		{"closing-prefix", "---\na: 1\n----\nbody", "a: 1", true},
		{"closing-prefix", "---\r\na: 1\r\n--- x\r\n", "a: 1", true},
		{"closing-prefix", "----\na: 1\n---\n", "", false},
		{"prefix", "----\na: 1\n---\n", "\na: 1", true},
		{"prefix", "--- \na: 1\n--- \n", "\na: 1", true},
		{"prefix", "---\n---\n", "", false},
		{"prefix", "x---\na: 1\n---\n", "", false},
	}
	for _, tt := range tests {
		fm, _, ok := splitFencesMode(tt.text, tt.mode)
		if ok != tt.ok || fm != tt.fm {
			t.Errorf("%s %q: %q, %v; want %q, %v", tt.mode, tt.text, fm, ok, tt.fm, tt.ok)
		}
	}
}

// Qwen Code's line reader and String(): the last line of a key wins,
// values are typed as JavaScript reads them, a map cannot be a string.
func TestKeyLinesAndJSString(t *testing.T) {
	t.Parallel()
	m := keyLinesFields("name: first\n# note\nname:second\ndescription: \"quoted \\\"x\\\"\"\n\tn: 1e3\nlist:\n  - a\n  - 2\nmeta:\n  k: v\nflag: true\nnone: null\n")
	for k, want := range map[string]string{"name": "second", "description": `quoted "x"`, "n": "1000", "list": "a,2", "flag": "true"} {
		got, ok := jsString(m[k])
		if !ok || got != want {
			t.Errorf("%s: %q, %v; want %q", k, got, ok, want)
		}
	}
	if _, ok := jsString(m["meta"]); ok {
		t.Error("a map has a string form")
	}
	if v, ok := m["none"]; !ok || v != nil {
		t.Errorf("none: %v, %v; want a null", v, ok)
	}
	for _, c := range []struct {
		v    any
		want string
	}{{int64(7), "7"}, {0.5, "0.5"}, {1e21, "1e+21"}, {1e-7, "1e-7"}, {false, "false"}, {[]any{"a", nil, int64(1)}, "a,,1"}} {
		if got, ok := jsString(c.v); !ok || got != c.want {
			t.Errorf("jsString(%v) = %q, %v; want %q", c.v, got, ok, c.want)
		}
	}
}

// Past its budget, Qwen Code's catalog shows each description's first
// line only; within it, descriptions are whole.
func TestApplyFirstLines(t *testing.T) {
	t.Parallel()
	p := &profile.Profile{Disclosure: profile.Disclosure{FirstLines: profile.FirstLines{Chars: 200, BuiltinChars: 0}}}
	mk := func(desc string) []hostVerdict {
		v := hostVerdict{Scope: ScopeProject, short: "one"}
		v.Loaded, v.Name, v.Description = true, "a", desc
		return []hostVerdict{v}
	}
	// The entry is 98 UTF-16 units besides name and description.
	short := mk("one\ntwo")
	applyFirstLines(p, short)
	if short[0].Description != "one\ntwo" {
		t.Errorf("within the budget: %q", short[0].Description)
	}
	long := mk("one\n" + strings.Repeat("é", 100))
	applyFirstLines(p, long)
	if long[0].Description != "one" {
		t.Errorf("past the budget: %q", long[0].Description)
	}
}

// Qwen Code's typed fields and paths: a field of another type, or a paths
// entry that is absolute or climbs out, drops the file; a null is no
// value; a paths list holds the skill back.
func TestHostFieldRules(t *testing.T) {
	t.Parallel()
	p, ok := profile.Lookup("qwen")
	if !ok {
		t.Fatal("no qwen profile")
	}
	tests := []struct {
		field   string
		refused bool
		hidden  bool
	}{
		{"", false, false},
		{"model: m", false, false},
		{"model:", false, false},
		{"model: 5", true, false},
		{"model: [a]", true, false},
		{"allowedTools: Read", true, false},
		{"allowedTools: [Read]", false, false},
		{"paths: src/*.go", true, false},
		{"paths: []", false, false},
		{"paths: ['  ']", false, false},
		{"paths: [src/*.go]", false, true},
		{"paths: [/abs/*.go]", true, false},
		{`paths: ['C:\x\*.go']`, true, false},
		{"paths: [a/../../b]", true, false},
		{"paths: [src/..x/*.go]", false, true},
		{"priority: high", false, false},
		{"other: a: b", false, false},          // YAML it refuses: its line reader's values
		{"model: 5\nother: a: b", true, false}, // the line reader types 5 a number
	}
	for _, tt := range tests {
		file := "---\nname: a\ndescription: d\n" + tt.field + "\n---\nBody.\n"
		got := hostParse(p, []byte(file), "/r/a/SKILL.md", "a", false)
		if (got.reason != "") != tt.refused || got.hidden != tt.hidden {
			t.Errorf("%q: reason %q hidden %v; want refused %v hidden %v", tt.field, got.reason, got.hidden, tt.refused, tt.hidden)
		}
	}
}
