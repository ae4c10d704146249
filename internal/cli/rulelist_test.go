package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestRuleListColumns checks that lint --list-rules lines up: on every
// row the fix flag and the source start where the header's FIX and
// SOURCE do, also on the rows whose level carries the "*" of a rule
// --strict makes an error.
func TestRuleListColumns(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := writeRuleList(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	header := lines[0]
	fixAt, srcAt := strings.Index(header, "FIX"), strings.Index(header, "SOURCE")
	starred := 0
	for _, l := range lines[1:] {
		if l == "" {
			break
		}
		if strings.Contains(l, "*") {
			starred++
		}
		if len(l) <= srcAt || l[fixAt-1] != ' ' || l[fixAt] == ' ' || l[srcAt-1] != ' ' || l[srcAt] == ' ' {
			t.Errorf("row out of line with the header:\n%s\n%s", header, l)
		}
	}
	if starred == 0 {
		t.Errorf("no row has a starred level; the test checks nothing:\n%s", b.String())
	}
}
