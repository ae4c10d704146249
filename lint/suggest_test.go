package lint

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// TestSuggestedFixes: Run attaches byte-range edits to the findings --fix
// mends, and applying them gives what FixSource gives.
func TestSuggestedFixes(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	src := "---\nname: shipit\ndescription: Use when: shipping\n---\n\nBody.\n"
	writeTree(t, ws, map[string]string{"skills/ship/SKILL.md": src})
	r, err := Run(context.Background(), &Options{Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}})
	if err != nil {
		t.Fatal(err)
	}
	var edits []skill.TextEdit
	got := map[skill.Code]string{}
	for _, d := range r.Diagnostics {
		for _, f := range d.Fixes {
			got[d.Code] = f.Message
			edits = append(edits, f.Edits...)
		}
	}
	want := map[skill.Code]string{diagcode.ParseRecovered: "quote the value of description", diagcode.NameMismatch: `set the name to "ship", the folder's`}
	for code, msg := range want {
		if got[code] != msg {
			t.Errorf("fix of %s = %q, want %q", code, got[code], msg)
		}
	}
	out, ok := applyEdits([]byte(src), edits)
	path := filepath.Join(ws, "skills", "ship", "SKILL.md")
	fixed, _, err := FixSource([]byte(src), &FixOptions{Name: true}, &skill.Options{Path: path})
	if !ok || err != nil || !bytes.Equal(out, fixed) {
		t.Errorf("the edits give %q (%v), FixSource %q (%v)", out, ok, fixed, err)
	}
	if fix, name := r.Fixable(); fix != 1 || name != 1 {
		t.Errorf("Fixable() = %d, %d; want 1, 1", fix, name)
	}
	// The edits refer to the bytes Run read: a file changed since is not
	// written.
	changes, _, err := Fix(context.Background(), r, &FixOptions{Name: true})
	if err != nil || len(changes) != 1 {
		t.Fatalf("Fix: %v, %v", changes, err)
	}
	if err := os.WriteFile(path, []byte(src+"More.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := changes[0].Write(); err == nil {
		t.Error("Write replaced a file that changed after Run read it")
	}
}

func TestWriteGitHub(t *testing.T) {
	t.Parallel()
	r := &Report{Diagnostics: []skill.Diagnostic{
		{Code: diagcode.UnknownField, Severity: skill.SeverityWarning, Path: "/ws/a:b,c/SKILL.md", Line: 3, Column: 1,
			Message: "100% odd\r\nfield"},
		{Code: diagcode.ParseError, Severity: skill.SeverityError, Path: "/ws/x/SKILL.md", Message: "bad"},
		{Code: diagcode.DuplicateCopy, Severity: skill.SeverityNote, Path: "/elsewhere/SKILL.md", Line: 1, Message: "copy"},
	}}
	var b bytes.Buffer
	if err := r.WriteGitHub(&b, "/ws"); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=a%3Ab%2Cc/SKILL.md,line=3,col=1,title=skillet unknown-field::100%25 odd%0D%0Afield%0Ahelp: move the field under metadata, or remove it\n" +
		"::error file=x/SKILL.md,title=skillet parse-error::bad%0Ahelp: fix the YAML at the line and column given\n" +
		"::notice file=/elsewhere/SKILL.md,line=1,title=skillet duplicate-copy::copy\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	// Control characters from a folder name or a message never reach the
	// log raw: an escape sequence, BEL, DEL, a C1 CSI, a bidirectional
	// override and a byte that is not UTF-8 are written as visible escapes,
	// in the file property and in the message alike (a message keeps tabs).
	r = &Report{Diagnostics: []skill.Diagnostic{
		{Code: diagcode.ParseError, Severity: skill.SeverityError, Path: "/ws/\x1b]0;pwned\a\x7f\u009b2J\u202eevil\xff\t/SKILL.md", Line: 2,
			Message: "bad \x1b[31mred\x1b[0m\tthen ::error::forged"},
	}}
	b.Reset()
	if err := r.WriteGitHub(&b, "/ws"); err != nil {
		t.Fatal(err)
	}
	want = `::error file=\x1b]0;pwned\x07\x7f\u009b2J\u202eevil\xff\t/SKILL.md,line=2,title=skillet parse-error::bad \x1b[31mred\x1b[0m` + "\t" +
		"then ::error::forged%0Ahelp: fix the YAML at the line and column given\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	for _, c := range b.String()[:len(b.String())-1] {
		if c < 0x20 && c != '\t' || c == 0x7f || c >= 0x80 && c < 0xa0 || c == 0x202e || c == utf8.RuneError {
			t.Errorf("a raw control character %U in the output", c)
		}
	}
}

// TestWriteGitHubCap: of each level GitHub shows 10 annotations per step;
// past that, 9 findings and one annotation that counts the rest, which
// follow as plain lines that cannot run as commands.
func TestWriteGitHubCap(t *testing.T) {
	t.Parallel()
	r := &Report{}
	for i := range 12 {
		r.Diagnostics = append(r.Diagnostics, skill.Diagnostic{Code: diagcode.BrokenReference, Severity: skill.SeverityWarning,
			Path: fmt.Sprintf("/ws/s%02d/SKILL.md", i), Line: 1, Message: "::error::forged"})
	}
	r.Diagnostics = append(r.Diagnostics, skill.Diagnostic{Code: diagcode.ParseError, Severity: skill.SeverityError, Path: "/ws/x/SKILL.md", Message: "bad"})
	var b bytes.Buffer
	if err := r.WriteGitHub(&b, "/ws"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, "\n::warning "); n+boolInt(strings.HasPrefix(out, "::warning ")) != gitHubAnnotationsPerLevel {
		t.Errorf("%d warning annotations, want %d:\n%s", n, gitHubAnnotationsPerLevel, out)
	}
	if strings.Count(out, "::error ") != 1 || !strings.Contains(out, "::warning title=skillet%3A 3 more warnings::GitHub shows 10 annotations of a level per step: 3 of the 12 warnings are not annotated") {
		t.Errorf("no count of the rest, or the error lost:\n%s", out)
	}
	stop := regexp.MustCompile(`(?m)^::stop-commands::(skillet-[0-9a-f]{32})$`).FindStringSubmatch(out)
	if stop == nil || !strings.HasSuffix(out, "::"+stop[1]+"::\n") {
		t.Fatalf("the plain lines are not fenced by ::stop-commands:::\n%s", out)
	}
	plain := out[strings.Index(out, stop[0]):]
	for _, want := range []string{"s09/SKILL.md:1: warning: ::error::forged [broken-reference]", "s10/SKILL.md", "s11/SKILL.md"} {
		if !strings.Contains(plain, want) {
			t.Errorf("plain lines miss %q:\n%s", want, plain)
		}
	}
	var sum bytes.Buffer
	if err := r.WriteGitHubSummary(&sum, "/ws"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sum.String(), "| [broken-reference](") || !strings.Contains(sum.String(), "| warning | 12 |") ||
		!strings.Contains(sum.String(), "- `s00/SKILL.md:1` warning: ::error::forged [broken-reference]") {
		t.Errorf("summary:\n%s", sum.String())
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
