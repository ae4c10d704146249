package lint

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/skillet-go/skillet/skill"
)

// FuzzFixSource checks the fixer's promises on arbitrary files: it never
// panics; when it rewrites, the result parses with no repair left and the
// same values, and outside the lines it fixed not a byte changes.
func FuzzFixSource(f *testing.F) {
	for _, s := range []string{
		"---\nname: x\ndescription: Use when: a\n---\n\nBody.\n",
		"---\r\nname: x\r\ndescription: a: b\r\n  c: d\r\n---\r\nBody\r\n",
		"---\nname: x\ndescription: a: b # c\n---\n\nBody.\n",
		"---\nname: Other: thing\ndescription: [a] b\nhint: , x\n---\n\nBody.\n",
		"---\nname: 'a'\ndescription: \"b\\\" : c\"\n---\n\nBody.\n",
		"---\nmetadata:\n  k: v: w\ndescription: d\n---\nBody\n",
		"no frontmatter: here\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, fixName bool) {
		po := &skill.Options{Path: "skills/x/SKILL.md"}
		out, fixes, err := FixSource(src, &FixOptions{Name: fixName}, po)
		if err != nil || len(fixes) == 0 {
			if err == nil && !bytes.Equal(out, src) {
				t.Fatalf("no fixes but the bytes changed")
			}
			return
		}
		before, _ := skill.Parse(src, po)
		after, _ := skill.Parse(out, po)
		if before == nil || after == nil || len(after.Repairs) > 0 {
			t.Fatalf("fixed file does not load cleanly:\n%q\n%q", src, out)
		}
		want, got := snapshot(before), snapshot(after)
		if fixName {
			got.name, got.rawName, got.nameField = want.name, want.rawName, want.nameField
		}
		if !equalValues(want, got) {
			t.Fatalf("values changed:\n%q\n%q", src, out)
		}
		// The first and last lines of the file (the fences and body) are
		// never touched when the frontmatter is more than one line.
		if utf8.Valid(src) && bytes.HasPrefix(src, []byte("---")) {
			if !bytes.HasPrefix(out, []byte("---")) {
				t.Fatalf("the opening fence changed:\n%q\n%q", src, out)
			}
		}
		if !bytes.HasSuffix(out, src[before.BodyOffset:]) {
			t.Fatalf("the body changed:\n%q\n%q", src, out)
		}
	})
}

// FuzzReferences checks that reference extraction never panics and that
// every position it reports lies inside the body.
func FuzzReferences(f *testing.F) {
	for _, s := range []string{
		"See [a](references/a.md) and `scripts/run.sh`.\n",
		"[x][y]\n\n[y]: assets/i.png\n",
		"```\n[no](link.md)\n```\n![img](assets/a%20b.png \"t\")\n",
		"<https://x.y> [a](<references/with space.md>) `--file=assets/x`\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		lines := bytes.Count(body, []byte("\n")) + 1
		for _, r := range listReferences(body) {
			if r.Line < 1 || r.Line > lines || r.Column < 1 || r.Target == "" {
				t.Fatalf("bad reference %+v in %q", r, body)
			}
		}
	})
}

// FuzzUnifiedDiff checks that the diff of two texts names every changed
// line: applying its - and + lines to the first text gives the second.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), []byte("a\nB\nc\n"))
	f.Add([]byte("a\r\nb"), []byte("a\nb\n"))
	f.Add([]byte(""), []byte("x\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		d := unifiedDiff("a", "b", a, b)
		if bytes.Equal(a, b) != (len(d) == 0) {
			t.Fatalf("diff of equal=%v texts is %q", bytes.Equal(a, b), d)
		}
		if len(d) > 0 {
			if got := applyDiff(t, a, d); !bytes.Equal(got, b) {
				t.Fatalf("applying the diff gave %q, want %q\n%s", got, b, d)
			}
		}
	})
}
