package ignore

import (
	"path"
	"slices"
	"strings"
	"testing"
)

func TestExcluded(t *testing.T) {
	for _, tt := range []struct {
		rules string
		path  string
		dir   bool
		want  bool
	}{
		{"*.log", "a.log", false, true},
		{"*.log", "deep/x/a.log", false, true},
		{"*.log", "a.log.txt", false, false},
		{"# comment\n\n*.bak", "x.bak", false, true},
		{"#x", "#x", false, false},
		{`\#x`, "#x", false, true},
		{`\!x`, "!x", false, true},
		{"secret", "secret", false, true},
		{"secret", "a/secret", false, true},
		{"secret", "secret/inner.txt", false, true}, // the folder is excluded
		{"build/", "build", false, false},           // a file named build
		{"build/", "build/out.js", false, true},
		{"build/", "a/build/out.js", false, true},
		{"/top.txt", "top.txt", false, true},
		{"/top.txt", "a/top.txt", false, false},
		{"doc/frotz", "doc/frotz", false, true},
		{"doc/frotz", "a/doc/frotz", false, false},
		{"a/*.md", "a/x.md", false, true},
		{"a/*.md", "a/b/x.md", false, false},
		{"**/foo", "foo", false, true},
		{"**/foo", "x/y/foo", false, true},
		{"**/foo/bar", "x/foo/bar", false, true},
		{"a/**/b", "a/b", false, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"a/**/b", "a/x/y/c", false, false},
		{"a/**", "a", true, false},
		{"a/**", "a/x", false, true},
		{"a/**", "a/x/y", false, true},
		{"*.txt\n!keep.txt", "keep.txt", false, false},
		{"*.txt\n!keep.txt", "other.txt", false, true},
		{"dir/\n!dir/keep.txt", "dir/keep.txt", false, true}, // no re-include below an excluded folder
		{"[abc].md", "b.md", false, true},
		{"[abc].md", "d.md", false, false},
		{"[!abc].md", "d.md", false, true},
		{"[!abc].md", "a.md", false, false},
		{"?.md", "x.md", false, true},
		{"?.md", "xy.md", false, false},
		{"trail   ", "trail", false, true},
		{`trail\ `, "trail ", false, true},
		{"crlf\r\n", "crlf", false, true},
		{"[unclosed", "[unclosed", false, false},
		{"/", "x", false, false},
		{"!", "x", false, false},
	} {
		m, _ := Parse([]byte(tt.rules))
		if got := m.Excluded(tt.path, tt.dir); got != tt.want {
			t.Errorf("rules %q, path %q (dir %t): excluded %t, want %t", tt.rules, tt.path, tt.dir, got, tt.want)
		}
	}
}

func TestParseBad(t *testing.T) {
	long := strings.Repeat("x", 100) + "\n"
	full := strings.Repeat(long, MaxFileBytes/len(long))
	full += strings.Repeat("z", MaxFileBytes-len(full)-1) + "\n" // exactly MaxFileBytes, whole lines
	lines := strings.Count(full, "\n")
	for _, tt := range []struct {
		name  string
		rules string
		want  []Problem
	}{
		{"none", "ok\n# fine\n\n", nil},
		{"unclosed classes", "ok\n[bad\n# fine\nx/é[\n!/a/b/[c\n", []Problem{
			{Line: 2, Column: 1, Pattern: "[bad"},
			{Line: 4, Column: 3, Pattern: "x/é["},
			{Line: 5, Column: 7, Pattern: "!/a/b/[c"},
		}},
		{"crlf", "a\r\n[b\r\n", []Problem{{Line: 2, Column: 1, Pattern: "[b"}}},
		{"fits", full, nil},
		{"one line over", full + "secret.key\n", []Problem{{Line: lines + 1, Column: 1, TooLarge: true}}},
		{"cut in a line", full + "x" + long, []Problem{{Line: lines + 1, Column: 1, TooLarge: true}}},
		{"one long line", strings.Repeat("y", MaxFileBytes+1), []Problem{{Line: 1, Column: 1, TooLarge: true}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, bad := Parse([]byte(tt.rules))
			if !slices.Equal(bad, tt.want) {
				t.Errorf("problems %+v, want %+v", bad, tt.want)
			}
		})
	}
}

// TestParseCutLine: a line cut by MaxFileBytes is not used, so its first
// part never becomes a pattern of its own.
func TestParseCutLine(t *testing.T) {
	pad := "#" + strings.Repeat("-", MaxFileBytes-len("#\nsecret")-1) + "\n"
	m, bad := Parse([]byte(pad + "secret.key\n"))
	if len(bad) != 1 || !bad[0].TooLarge || bad[0].Line != 2 {
		t.Fatalf("problems %+v, want the file too large from line 2", bad)
	}
	if m.Excluded("secret", false) {
		t.Errorf("the cut line's first part %q became a pattern", "secret")
	}
}

func TestChainDeeperWins(t *testing.T) {
	outer, _ := Parse([]byte("*.md\n"))
	inner, _ := Parse([]byte("!README.md\n"))
	c := Chain{{Matcher: outer}, {Matcher: inner}}
	if c.Excluded("README.md", false) {
		t.Error("the inner file re-includes README.md")
	}
	if !c.Excluded("other.md", false) {
		t.Error("the outer file excludes other.md")
	}
	// The outer file's patterns see the path from its own folder.
	root, _ := Parse([]byte("/skills/a/drafts/\n"))
	p := Chain{{Matcher: root, Prefix: "skills/a"}}
	if !p.Excluded("drafts/x.md", false) || p.Excluded("x.md", false) {
		t.Error("an anchored root pattern applies through the prefix")
	}
	var nilChain Chain
	if nilChain.Excluded("x", false) || (*Matcher)(nil).Excluded("x", false) {
		t.Error("no rules exclude nothing")
	}
}

// FuzzMatch checks that no file and no path makes the matcher panic or
// disagree with itself: a path excluded is excluded whatever follows it,
// and a plain name rule matches exactly that name at any depth.
func FuzzMatch(f *testing.F) {
	f.Add([]byte("*.log\n!keep.log\nbuild/\n/a/**/b\n[!x]y\n"), "a/q/b/c.log", true)
	f.Add([]byte(`\#x \ `), "#x ", false)
	f.Fuzz(func(t *testing.T, rules []byte, p string, dir bool) {
		m, _ := Parse(rules)
		if p == "" || path.Clean(p) != p || path.IsAbs(p) || p == "." || p == ".." || strings.HasPrefix(p, "../") {
			return // not a clean relative path, which callers give
		}
		if m.Excluded(p, true) && !m.Excluded(p+"/x", dir) {
			t.Fatalf("rules %q exclude the folder %q but not a file in it", rules, p)
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if strings.ContainsAny(name, "*?[\\!# \r\n") {
			return
		}
		n, _ := Parse([]byte(name))
		if !n.Excluded(p, dir) {
			t.Fatalf("the rule %q does not match %q", name, p)
		}
	})
}
