package lint

import (
	"strings"
	"testing"
)

// TestBlockContextShared checks that the references goldmark finds in one
// block share one block context (read and matched once for all of them),
// that references in other blocks do not, and that exampleContext, which
// remembers a block's last sentence, still judges each reference by its
// own sentence.
func TestBlockContextShared(t *testing.T) {
	t.Parallel()
	body := []byte("Run [a](scripts/a.sh) now. For example [b](scripts/b.sh) is one. Then [c](scripts/c.sh) and [d](scripts/d.sh).\n\n" +
		"Other [e](scripts/e.sh) here.\n")
	refs := parseReferences(body, false)
	if len(refs) != 5 {
		t.Fatalf("%d references, want 5", len(refs))
	}
	for i := 1; i < 4; i++ {
		if refs[i].context() != refs[0].context() {
			t.Errorf("reference %d (%s) has a context of its own, want the block's", i, refs[i].Target)
		}
	}
	if refs[4].context() == refs[0].context() {
		t.Errorf("the second paragraph's reference shares the first paragraph's context")
	}
	want := map[string]bool{"scripts/a.sh": false, "scripts/b.sh": true, "scripts/c.sh": false, "scripts/d.sh": false, "scripts/e.sh": false}
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {3, 1, 0, 2, 4}} {
		refs := parseReferences(body, false)
		for _, i := range order {
			r := &refs[i]
			sentence := sentenceAt(r.context().text, r.off)
			if got := exampleContext(body, r); got != want[r.Target] {
				t.Errorf("order %v: %s in %q: example %v, want %v", order, r.Target, sentence, got, want[r.Target])
			}
		}
	}
	// A long block that names one file many times is judged the same for
	// every reference.
	long := []byte(strings.Repeat("[x](scripts/x.sh) ", 500) + "e.g. [y](scripts/y.sh)\n")
	refs = parseReferences(long, false)
	for i := range refs {
		if got := exampleContext(long, &refs[i]); got != true {
			t.Fatalf("reference %d of the long sentence: example %v, want true (the sentence says e.g.)", i, got)
		}
	}
}
