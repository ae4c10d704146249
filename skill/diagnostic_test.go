package skill

import "testing"

// TestCompareDiagnostics: each key decides in turn (path, line, column,
// code, message), and SortDiagnostics sorts by it, stably.
func TestCompareDiagnostics(t *testing.T) {
	t.Parallel()
	base := Diagnostic{Path: "b/SKILL.md", Line: 3, Column: 5, Code: "m-code", Message: "m"}
	tests := []struct {
		name string
		edit func(*Diagnostic)
		want int // sign of CompareDiagnostics(edited, base)
	}{
		{"same", func(*Diagnostic) {}, 0},
		{"path first", func(d *Diagnostic) { d.Path, d.Line = "a/SKILL.md", 9 }, -1},
		{"path later", func(d *Diagnostic) { d.Path, d.Line = "c/SKILL.md", 1 }, 1},
		{"line", func(d *Diagnostic) { d.Line, d.Column = 2, 9 }, -1},
		{"column", func(d *Diagnostic) { d.Column, d.Code = 6, "a-code" }, 1},
		{"code", func(d *Diagnostic) { d.Code, d.Message = "a-code", "z" }, -1},
		{"message", func(d *Diagnostic) { d.Message = "n" }, 1},
		{"severity does not count", func(d *Diagnostic) { d.Severity = SeverityError }, 0},
	}
	sign := func(n int) int {
		switch {
		case n < 0:
			return -1
		case n > 0:
			return 1
		}
		return 0
	}
	for _, tt := range tests {
		d := base
		tt.edit(&d)
		if got := sign(CompareDiagnostics(d, base)); got != tt.want {
			t.Errorf("%s: CompareDiagnostics(edited, base) sign %d, want %d", tt.name, got, tt.want)
		}
		if got := sign(CompareDiagnostics(base, d)); got != -tt.want {
			t.Errorf("%s: CompareDiagnostics(base, edited) sign %d, want %d", tt.name, got, -tt.want)
		}
	}

	diags := []Diagnostic{
		{Path: "b", Line: 1, Message: "first"},
		{Path: "a", Line: 2},
		{Path: "b", Line: 1, Message: "first"},
		{Path: "a", Line: 1},
	}
	diags[2].Severity = SeverityError // ties with diags[0]: stable order keeps it second
	SortDiagnostics(diags)
	want := []string{"a:1", "a:2", "b:1:other", "b:1:error"}
	for i, d := range diags {
		got := d.Path + ":" + string(rune('0'+d.Line))
		if d.Path == "b" {
			if d.Severity == SeverityError {
				got += ":error"
			} else {
				got += ":other"
			}
		}
		if got != want[i] {
			t.Fatalf("SortDiagnostics order: item %d is %s, want %s (%v)", i, got, want[i], diags)
		}
	}
}
