package catalog

import (
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/profile"
)

// TestHostText holds the first step of a host's reading: the byte order
// mark, UTF-8 and line ends.
func TestHostText(t *testing.T) {
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
