package skill

import (
	"fmt"
	"github.com/skillet-go/skillet/internal/diagcode"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestValueComment holds value-comment to what YAML cuts: a " #" in a
// plain description or when-to-use hint, at the #'s line and column, and
// nothing where the text reaches the value.
func TestValueComment(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, fm string
		want     string // "line:col", or "" for no finding
		desc     string // the description read, when want is set
	}{
		{"cut", "description: Tracks C # and F # code", "3:23", "Tracks C"},
		{"hashtag", "description: Posts with #launch tags", "3:25", "Posts with"},
		{"tab", "description: Tracks C\t# notes", "3:23", "Tracks C"},
		{"continuation", "description: Tracks C code\n  and more # lost here", "4:12", "Tracks C code and more"},
		{"when_to_use", "description: d\nwhen_to_use: When C # arrives", "4:21", ""},
		{"no space", "description: Writes C# and F# code", "", ""},
		{"double quoted", `description: "Tracks C # and F # code"`, "", ""},
		{"single quoted", `description: 'Tracks C # and F # code'`, "", ""},
		{"folded", "description: >-\n  Tracks C # and F # code", "", ""},
		{"comment line", "description: Tracks C code\n  # a note\nlicense: MIT", "", ""},
		{"comment only", "description: # nothing", "", ""},
		{"hash at end", "description: Tracks C #", "", ""},
		{"other key", "description: d\nlicense: MIT # SPDX", "", ""},
		{"multibyte", "description: Café über # gone", "3:24", "Café über"},
		// A skillet directive (docs/lint.md#choosing-rules) ending the line
		// is meant as a comment: quoting it would put it in the description.
		{"skillet directive", "description: Does x. Use when y.   # skillet: ignore[unknown-field]", "", ""},
		{"skillet directive, no spaces", "description: Does x. # skillet:ignore[name]", "", ""},
		{"skillet mention", "description: Tracks C # skillet is nice", "3:23", "Tracks C"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := "---\nname: x\n" + tt.fm + "\n---\nBody.\n"
			s, diags := Parse([]byte(src), &Options{Path: "/ws/x/SKILL.md"})
			var got []string
			for _, d := range diags {
				if d.Code == diagcode.ValueComment {
					got = append(got, fmt.Sprintf("%d:%d", d.Line, d.Column))
				}
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("value-comment at %v, want none", got)
			case tt.want != "" && (len(got) != 1 || got[0] != tt.want):
				t.Errorf("value-comment at %v, want %s", got, tt.want)
			}
			if tt.desc != "" && (s == nil || s.Description != tt.desc) {
				t.Errorf("description %q, want %q (the test's premise about YAML)", s.Description, tt.desc)
			}
		})
	}
}

// FuzzPlainComment checks that plainComment never panics, and that a
// comment it finds is text of the lines after a # at the column it gives.
func FuzzPlainComment(f *testing.F) {
	for _, s := range []string{"description: a # b", "description: a\n  b # c", "d: 'a # b'", "é: x\t# y", "k:#", ""} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, text string, keyCol int) {
		if !utf8.ValidString(text) || keyCol < 1 || keyCol > 200 {
			return
		}
		lines := strings.Split(text, "\n")
		line, col, comment := plainComment(lines, keyCol)
		if comment == "" {
			return
		}
		l := []rune(lines[line])
		if col < 2 || col > len(l) || l[col-1] != '#' || !strings.Contains(string(l[col:]), comment) {
			t.Fatalf("line %d column %d, comment %q in %q", line, col, comment, lines[line])
		}
	})
}

// TestValueCommentsNeedAHash: the value-comment check splits the
// frontmatter into lines only when its text holds a '#': a clean file's
// parse made a slice of its lines for nothing (BenchmarkParse/3170B: 18
// -> 16 allocations, 5,000 -> 4,536 bytes). With a '#', the same
// frontmatter is checked and reported.
func TestValueCommentsNeedAHash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want int // value-comment findings
	}{
		{"name: a\ndescription: Tracks C and F code\n", 0},
		{"name: a\ndescription: Tracks C # and F # code\n", 1},
	} {
		fm := &frontmatter{text: []byte(tc.text), lineOff: 2, keys: []keyPos{{key: "name", line: 2, col: 1}, {key: "description", line: 3, col: 1}}}
		p := &parser{}
		p.reportValueComments(fm, func(string) string { return "Tracks C" })
		if len(p.diags) != tc.want {
			t.Errorf("%q: %d findings, want %d", tc.text, len(p.diags), tc.want)
		}
		if hash := strings.Contains(tc.text, "#"); (fm.lines != nil) != hash {
			t.Errorf("%q: lines split %v, want %v", tc.text, fm.lines != nil, hash)
		}
	}
}
