package skillsref

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPyJSONString(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:       `"plain"`,
		"é":           `"\u00e9"`,
		"😀":           `"\ud83d\ude00"`,
		"a\"b\\c":     `"a\"b\\c"`,
		"tab\there\n": `"tab\there\n"`,
		"\x01":        `"\u0001"`,
		"<tag> & 'x'": `"<tag> & 'x'"`,
		"\u2028":      `"\u2028"`,
	} {
		if got := pyJSONString(in); got != want {
			t.Errorf("pyJSONString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestPyRepr(t *testing.T) {
	v := []kv{{key: "a", val: "b"}, {key: "n", val: []any{"x", "1"}}, {key: "q", val: "it's"}}
	if got, want := pyRepr(v), `{'a': 'b', 'n': ['x', '1'], 'q': "it's"}`; got != want {
		t.Errorf("pyRepr = %s, want %s", got, want)
	}
}

func TestValidateMessages(t *testing.T) {
	for _, tt := range []struct {
		dir, file string
		want      []string
	}{
		{"good", "---\nname: good\ndescription: d\n---\nb\n", nil},
		{"Upper", "---\nname: Upper\ndescription: d\n---\nb\n", []string{
			"Skill name 'Upper' must be lowercase",
		}},
		{"x", "---\nname: -a--b-\ndescription: d\n---\nb\n", []string{
			"Skill name cannot start or end with a hyphen",
			"Skill name cannot contain consecutive hyphens",
			"Directory name 'x' must match skill name '-a--b-'",
		}},
		{"long", "---\nname: long\ndescription: " + strings.Repeat("d", 1025) + "\ncompatibility: " + strings.Repeat("c", 501) + "\n---\nb\n", []string{
			"Description exceeds 1024 character limit (1025 chars)",
			"Compatibility exceeds 500 character limit (501 chars)",
		}},
		{"missing", "---\nlicense: MIT\n---\nb\n", []string{
			"Missing required field in frontmatter: name",
			"Missing required field in frontmatter: description",
		}},
		{"empty", "---\n---\nb\n", []string{"SKILL.md frontmatter must be a YAML mapping"}},
		{"emptybody", "---\nname: emptybody\ndescription: d\n---\n", nil},
		{"blank", "\n---\nname: blank\ndescription: d\n---\nb\n", []string{"SKILL.md must start with YAML frontmatter (---)"}},
		{"list", "---\n- a\n---\nb\n", []string{"SKILL.md frontmatter must be a YAML mapping"}},
		{"unclosed", "---\nname: unclosed\ndescription: d\n\nb\n", []string{"SKILL.md frontmatter not properly closed with ---"}},
		{"unclosed-rule", "---\nname: unclosed-rule\ndescription: d\n\n# T\n\nb\n\n---\n\nc\n", []string{"Invalid YAML in frontmatter: while scanning a simple key\n  in \"<unicode string>\", line 7, column 1:\n    b\n    ^ (line: 7)\ncould not find expected ':'\n  in \"<unicode string>\", line 9, column 1:\n    \n    ^ (line: 9)"}},
	} {
		dir := filepath.Join(t.TempDir(), tt.dir)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(tt.file), 0o644)
		if diff := cmp.Diff(tt.want, Validate(dir)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.dir, diff)
		}
	}
	if got := Validate(filepath.Join(t.TempDir(), "nope")); len(got) != 1 || !strings.HasPrefix(got[0], "Path does not exist: ") {
		t.Errorf("missing path: %v", got)
	}
}

// FuzzFrontmatter checks that reading any file as the reference does
// never panics, and that every error is a reference-tool *Error with a
// message.
func FuzzFrontmatter(f *testing.F) {
	for _, s := range []string{
		"---\nname: a\ndescription: d\n---\n", "---\nname: [a\n---\n", "---\na: &x b\nc: *x\n---\n",
		"---\n\tname: a\n---\n", "---\nk: \"\\x\"\n---\n", "---\nname: a\x85b\n---\n", "\xff---\n",
		"---\n" + strings.Repeat("k: v # c\n", 3) + "---", "---\n? a\n: b\n---\n", "---\n- a\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "SKILL.md")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := frontmatter(file)
		if err != nil && (!IsError(err) || err.Error() == "") {
			t.Fatalf("error %T %q is not a reference error", err, err)
		}
	})
}

// FuzzCheckFile checks that the decision of strict mode on a file's bytes
// never panics, is the verdict of Check on the same file written to a
// folder, and gives a non-empty name and description exactly when there is
// no violation.
func FuzzCheckFile(f *testing.F) {
	for _, s := range []string{
		"---\nname: x\ndescription: d\n---\n", "---\nname: x\ndescription: d\nmetadata:\n  a:\n    b: c\n---\nB\n",
		"---\nname: x\ndescription: d\nallowed-tools: [A, B]\n---\n", "---\nname:\ndescription: d\n---\n",
		"---\nname: X\ndescription: 42\n---\n", "# no frontmatter\n", "---\nname: x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, name, desc := CheckFile("x", "SKILL.md", data)
		if (len(vs) == 0) != (name != "" && desc != "") {
			t.Fatalf("%d violations, name %q, description %q", len(vs), name, desc)
		}
		dir := filepath.Join(t.TempDir(), "x")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := Check(dir); !slices.Equal(got, vs) {
			t.Fatalf("Check: %v, CheckFile: %v", got, vs)
		}
	})
}
