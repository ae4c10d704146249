package mcpserver

import (
	"errors"
	"path"
	"strings"
	"testing"
)

func TestParseURI(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		uri, name, rel string
	}{
		{"skill://alpha/SKILL.md", "alpha", "SKILL.md"},
		{"skill://alpha", "alpha", ""},
		{"skill://alpha/references/guide.md", "alpha", "references/guide.md"},
		{"skill://alpha/docs/a%20b%23c.md", "alpha", "docs/a b#c.md"},
		{"skill://under_score/x.v1.txt", "under_score", "x.v1.txt"},
		{"skill://a/%C3%A9t%C3%A9.md", "a", "été.md"},
		{"skill://a/...md", "a", "...md"},
		{"skill://a/c:d", "a", "c:d"},
	} {
		name, rel, err := parseURI(tt.uri)
		if err != nil || name != tt.name || rel != tt.rel {
			t.Errorf("parseURI(%q) = %q, %q, %v; want %q, %q", tt.uri, name, rel, err, tt.name, tt.rel)
		}
		if got := skillURI(name, rel); got != tt.uri {
			t.Errorf("skillURI(%q, %q) = %q, want %q", name, rel, got, tt.uri)
		}
	}
}

func TestParseURIErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ uri, msg string }{
		{"", "not an absolute URI"},
		{"alpha/SKILL.md", "not an absolute URI"},
		{"/etc/passwd", "not an absolute URI"},
		{"file:///etc/passwd", `unknown scheme "file"`},
		{"Skill://alpha/SKILL.md", `unknown scheme "Skill"`},
		{"skill:alpha/SKILL.md", `unknown scheme "skill"`},
		{"skill:///etc/passwd", "no skill name"},
		{"skill://", "no skill name"},
		{"skill://Alpha/SKILL.md", "must match"},
		{"skill://-a/SKILL.md", "must match"},
		{"skill://a%2Fb/SKILL.md", "must match"},
		{"skill://user@alpha/SKILL.md", "must match"},
		{"skill://alpha:80/SKILL.md", "must match"},
		{"skill://alpha/", "empty path segment"},
		{"skill://alpha//etc/passwd", "empty path segment"},
		{"skill://alpha/../beta/SKILL.md", `".."`},
		{"skill://alpha/./SKILL.md", `".."`},
		{"skill://alpha/%2e%2e/x", `".."`},
		{"skill://alpha/%2E/x", `".."`},
		{"skill://alpha/a%2Fb", "holds"},
		{"skill://alpha/a%5Cb", "holds"},
		{"skill://alpha/a%00", "holds"},
		{"skill://alpha/a\\b", "holds"},
		{"skill://alpha/a b.md", "canonical"},
		{"skill://alpha/%61.md", "canonical"},
		{"skill://alpha/a%2fb", "holds"},
		{"skill://alpha/%zz", "percent-encoding"},
		{"skill://alpha/SKILL.md?x", "query"},
		{"skill://alpha/SKILL.md#x", "query"},
	} {
		_, _, err := parseURI(tt.uri)
		if !errors.Is(err, errInvalidURI) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("parseURI(%q) error %v, want errInvalidURI saying %q", tt.uri, err, tt.msg)
		}
	}
}

// TestParseURICanonicalSuggestion: a URI spelled other than the canonical
// way is refused with the canonical URI of the same file, every segment
// kept, and a bad segment after the odd spelling is reported rather than
// hidden behind a suggestion.
func TestParseURICanonicalSuggestion(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ uri, want string }{
		{"skill://alpha/a b.md", "skill://alpha/a%20b.md"},
		{"skill://alpha/references/deep/%61.md", "skill://alpha/references/deep/a.md"},
		{"skill://alpha/ref%65rences/deep/a b.md", "skill://alpha/references/deep/a%20b.md"},
		{"skill://alpha/a%2Db/c/d.md", "skill://alpha/a-b/c/d.md"},
	} {
		_, _, err := parseURI(tt.uri)
		if !errors.Is(err, errInvalidURI) || !strings.HasSuffix(err.Error(), "the file's URI is "+tt.want) {
			t.Errorf("parseURI(%q) error %v, want the suggestion %s", tt.uri, err, tt.want)
		}
		if name, rel, err := parseURI(tt.want); err != nil || skillURI(name, rel) != tt.want {
			t.Errorf("the suggestion %s does not parse back: %q %q %v", tt.want, name, rel, err)
		}
	}
	_, _, err := parseURI("skill://alpha/a b/../x")
	if !errors.Is(err, errInvalidURI) || !strings.Contains(err.Error(), `".."`) {
		t.Errorf("an odd spelling before a \"..\": %v", err)
	}
}

// FuzzParseURI: whatever the input, ParseURI does not panic, accepts only
// the canonical spelling, and never yields a path that leaves the skill
// folder.
func FuzzParseURI(f *testing.F) {
	for _, s := range []string{"skill://alpha/SKILL.md", "skill://a/b%20c/d", "skill://a/%2e%2e/x", "skill://a//b",
		"skill://a/..", "file:///x", "skill://a/%C3%A9", "skill://a/\\..\\x", "skill://a/%00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		name, rel, err := parseURI(uri)
		if err != nil {
			if !errors.Is(err, errInvalidURI) {
				t.Fatalf("error %v does not wrap errInvalidURI", err)
			}
			return
		}
		if got := skillURI(name, rel); got != uri {
			t.Fatalf("parseURI(%q) = %q, %q, which is spelt %q", uri, name, rel, got)
		}
		if rel == "" {
			return
		}
		if path.IsAbs(rel) || path.Clean(rel) != rel || rel == ".." || strings.HasPrefix(rel, "../") || strings.ContainsAny(rel, "\\\x00") {
			t.Fatalf("parseURI(%q) gave the path %q", uri, rel)
		}
	})
}

// FuzzCursor: decodeCursor does not panic, rejects what encodeCursor did
// not make, and round-trips what it did.
func FuzzCursor(f *testing.F) {
	for _, s := range []string{"", encodeCursor("skill://a/SKILL.md"), "AAAA", "azE6", "!!", "azE6eA=="} {
		f.Add(s, "skill://x/SKILL.md")
	}
	f.Fuzz(func(t *testing.T, c, key string) {
		got, err := decodeCursor(c)
		switch {
		case err != nil:
			if !errors.Is(err, errInvalidCursor) {
				t.Fatalf("error %v does not wrap errInvalidCursor", err)
			}
		case c == "":
			if got != "" {
				t.Fatalf("empty cursor gave %q", got)
			}
		case encodeCursor(got) != c:
			t.Fatalf("decodeCursor(%q) = %q, which encodes as %q", c, got, encodeCursor(got))
		}
		if key == "" {
			return
		}
		back, err := decodeCursor(encodeCursor(key))
		if err != nil || back != key {
			t.Fatalf("round trip of %q: %q, %v", key, back, err)
		}
	})
}
