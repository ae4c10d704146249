package fsx

import (
	"errors"
	"path/filepath"
	"testing"
)

var errOut, errEmpty = errors.New("outside"), errors.New("empty")

func TestCleanRel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		err      error
	}{
		{"references/guide.md", "references/guide.md", nil},
		{`scripts\run.sh`, "scripts/run.sh", nil},
		{"./a//b/c", "a/b/c", nil},
		{"a/b/../c", "", errOut}, // any ".." is refused, even one that stays inside
		{"a/./b/", "a/b", nil},
		{".", ".", nil},
		{"", "", errEmpty},
		{"  ", "", errEmpty},
		{"/etc/passwd", "", errOut},
		{`\server\share`, "", errOut},
		{"C:/x", "", errOut},
		{"../x", "", errOut},
		{"a/../../x", "", errOut},
		{`a\..\..\x`, "", errOut},
		{"a\x00b", "", errOut},
	} {
		got, err := CleanRel(tc.in, errOut, errEmpty)
		if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("CleanRel(%q) = %q, %v; want %q, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestWithinAndDisplay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p, dir string
		within bool
		shown  string
	}{
		{"/w/a/SKILL.md", "/w", true, "a/SKILL.md"},
		{"/w", "/w", true, "."},
		{"/wx/a", "/w", false, "/wx/a"},
		{"/w/../x", "/w", false, "/w/../x"},
		{"/other", "/w", false, "/other"},
	} {
		if got := Within(tc.p, tc.dir); got != tc.within {
			t.Errorf("Within(%q, %q) = %v", tc.p, tc.dir, got)
		}
		if got := Display(tc.p, tc.dir); got != tc.shown {
			t.Errorf("Display(%q, %q) = %q, want %q", tc.p, tc.dir, got, tc.shown)
		}
	}
	if got := Display("/w/a", ""); got != "/w/a" {
		t.Errorf("Display with no base = %q", got)
	}
	if got := Display("rel/a", "/w"); got != "rel/a" {
		t.Errorf("Display of a relative path = %q", got)
	}
}

// FuzzWithin: Within, which compares clean absolute paths by their bytes,
// answers as filepath.Rel does (withinRel) for any two paths, and
// cleanAbs is filepath.Clean leaving an absolute path as it is.
func FuzzWithin(f *testing.F) {
	for _, s := range [][2]string{
		{"/a/b", "/a"}, {"/a", "/a/b"}, {"/ab", "/a"}, {"/a/..b", "/a"}, {"/a/../b", "/a"}, {"/x", "/"},
		{"/", "/"}, {"/a/", "/a"}, {"a/b", "a"}, {"/a//b", "/a"}, {"/a/./b", "/a"}, {"/a/b/..", "/a/b"},
		{"/a/b", "/a/."}, {"/.", "/"}, {"", ""}, {"/a", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, p, dir string) {
		if got, want := Within(p, dir), withinRel(p, dir); got != want {
			t.Fatalf("Within(%q, %q) = %v, filepath.Rel says %v", p, dir, got, want)
		}
		if got, want := cleanAbs(p), filepath.IsAbs(p) && filepath.Clean(p) == p; filepath.Separator == '/' && got != want {
			t.Fatalf("cleanAbs(%q) = %v, want %v", p, got, want)
		}
	})
}
