package lint

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

func TestMatchRule(t *testing.T) {
	t.Parallel()
	known := skill.Codes()
	for _, tc := range []struct {
		e    string
		want []skill.Code
	}{
		{"broken-reference", []skill.Code{diagcode.BrokenReference}},
		{"name", []skill.Code{diagcode.NameInvalid, diagcode.NameMismatch, diagcode.NameMissing, diagcode.NameNormalized}},
		{"name-", []skill.Code{diagcode.NameInvalid, diagcode.NameMismatch, diagcode.NameMissing, diagcode.NameNormalized}},
		{"nam", nil},            // not at a "-"
		{"broken-ref", nil},     // not at a "-"
		{"unknown-fild", nil},   // misspelt
		{"", nil},               // nothing
		{"description-to", nil}, // not at a "-"
	} {
		if got := matchRule(tc.e, known); !slices.Equal(got, tc.want) {
			t.Errorf("matchRule(%q) = %v, want %v", tc.e, got, tc.want)
		}
	}
	if got := matchRule("all", known); len(got) != len(known) {
		t.Errorf("all: %d codes, want %d", len(got), len(known))
	}
	// The nearest code, prefix of codes or "all" is suggested; each
	// suggestion is itself a valid entry.
	for typed, want := range map[string]string{"unknown-fild": "unknown-field", "descripton": "description",
		"nme": "name", "ALL": "all", "brokn-reference": "broken-reference"} {
		err := CheckRule(typed)
		if !errors.Is(err, ErrUnknownCode) || !strings.Contains(err.Error(), "did you mean "+want+"?") {
			t.Errorf("CheckRule(%s) = %v, want it to suggest %s", typed, err, want)
		}
		if err := CheckRule(want); err != nil {
			t.Errorf("the suggestion %s is no rule: %v", want, err)
		}
	}
	if err := CheckRule("name"); err != nil {
		t.Errorf("CheckRule(name) = %v", err)
	}
}

func TestInlineIgnores(t *testing.T) {
	t.Parallel()
	type got struct {
		entry     string
		line, col int
		known     bool
	}
	for _, tc := range []struct {
		head string
		want []got
	}{
		{"---\nname: a\n# skillet: ignore[unknown-field]\n---\n", []got{{"unknown-field", 3, 19, true}}},
		{"---\nhomepage: x   # skillet: ignore[unknown-field, nme]\n---\n", []got{{"unknown-field", 2, 33, true}, {"nme", 2, 48, false}}},
		{"---\n#skillet:ignore[name]\n", []got{{"name", 2, 17, true}}},
		// White space other than ' ' and '\t' before an entry.
		{"---\n#skillet:ignore[\fname,\u00a0nme]\n", []got{{"name", 2, 18, true}, {"nme", 2, 25, false}}},
		{"---\ndescription: a#skillet: ignore[name]\n", nil}, // "#" inside a plain value is no comment
		{"---\n# skillet: ignore[name\n", nil},               // unclosed
		{"---\n# skillet: disable[name]\n", nil},
		{"---\n# not skillet: ignore[name]\n", nil},
		{"---\nname: a\n", nil},
	} {
		var out []got
		for _, ig := range inlineIgnores([]byte(tc.head)) {
			out = append(out, got{ig.entry, ig.line, ig.column, ig.codes != nil})
		}
		if !slices.Equal(out, tc.want) {
			t.Errorf("inlineIgnores(%q) = %v, want %v", tc.head, out, tc.want)
		}
	}
}

func FuzzInlineIgnores(f *testing.F) {
	f.Add([]byte("---\n# skillet: ignore[unknown-field, x]\n---\n"))
	f.Add([]byte("a # skillet: ignore[]"))
	f.Fuzz(func(t *testing.T, head []byte) {
		lines := strings.Split(string(head), "\n")
		for _, ig := range inlineIgnores(head) {
			if ig.line < 1 || ig.line > len(lines) || ig.column < 1 || ig.column+len(ig.entry)-1 > len(lines[ig.line-1]) {
				t.Fatalf("entry %q at %d:%d outside the text", ig.entry, ig.line, ig.column)
			}
			if got := lines[ig.line-1][ig.column-1 : ig.column-1+len(ig.entry)]; got != ig.entry {
				t.Fatalf("entry %q, text at %d:%d is %q", ig.entry, ig.line, ig.column, got)
			}
		}
	})
}

// TestSelection: the defaults leave opt-in rules off; --select replaces
// the file's select, --extend-select and --ignore add to it; ignore wins;
// a code's level wins over its prefix's; unknown entries are errors where
// they were written.
func TestSelection(t *testing.T) {
	t.Parallel()
	cv := func(s string) catalog.ConfigValue { return catalog.ConfigValue{Value: s, Line: 2, Column: 3} }
	var optIn skill.Code
	for _, ci := range skill.Codes() {
		if ci.OptIn {
			optIn = ci.Code
		}
	}
	def, err := newSelection(nil, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if !def.reported(diagcode.BrokenReference) || optIn != "" && def.reported(optIn) || !def.reported("never-registered") {
		t.Errorf("defaults: broken-reference %v, opt-in %s %v", def.reported(diagcode.BrokenReference), optIn, def.reported(optIn))
	}
	cfg := &catalog.LintConfig{Select: []catalog.ConfigValue{cv("name")}, Ignore: []catalog.ConfigValue{cv("name-normalized")},
		Severity: []catalog.LintSeverity{{Code: cv("name-mismatch"), Level: cv("error")}, {Code: cv("name"), Level: cv("note")}}}
	sel, err := newSelection(nil, cfg, "skillet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for code, want := range map[skill.Code]bool{diagcode.NameMismatch: true, diagcode.NameNormalized: false, diagcode.BrokenReference: false, "never-registered": false} {
		if sel.reported(code) != want {
			t.Errorf("file select: %s reported %v, want %v", code, !want, want)
		}
	}
	if sel.level[diagcode.NameMismatch] != skill.SeverityError || sel.level[diagcode.NameInvalid] != skill.SeverityNote {
		t.Errorf("levels %v: the code's own entry must win over the prefix's", sel.level)
	}
	sel, err = newSelection(&Rules{Select: []string{"broken-reference"}, ExtendSelect: []string{"name-normalized"}}, cfg, "skillet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !sel.reported(diagcode.BrokenReference) || sel.reported(diagcode.NameMismatch) || sel.reported(diagcode.NameNormalized) {
		t.Errorf("--select must replace the file's select, and the file's ignore still win: %v", sel.on)
	}
	_, err = newSelection(&Rules{Ignore: []string{"nme-mismatch"}}, nil, "")
	if !errors.Is(err, ErrUnknownCode) || !strings.Contains(err.Error(), "did you mean name-mismatch?") {
		t.Errorf("unknown --ignore: %v", err)
	}
	_, err = newSelection(nil, &catalog.LintConfig{Ignore: []catalog.ConfigValue{cv("x-y")}, Severity: []catalog.LintSeverity{{Code: cv("name"), Level: cv("loud")}}}, "skillet.yaml")
	var ce *catalog.ConfigError
	if !errors.As(err, &ce) || ce.Line != 2 || len(ce.More) != 1 {
		t.Errorf("bad file entries: %v, want two config errors at their lines", err)
	}
}
