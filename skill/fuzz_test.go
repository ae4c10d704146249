package skill

import (
	"bytes"
	"testing"
)

// FuzzParse checks that Parse never panics and keeps its contract on any
// input: a skill is returned exactly when no error was reported, a loaded
// skill has a valid name and a description, and every position lies inside
// the file.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"---\nname: x\ndescription: d\n---\nbody\n",
		"\xEF\xBB\xBF---\r\nname: x\r\ndescription: Use when: asked\r\n---\r\nbody",
		"---\nname: Release Checklist\ndescription: >-\n  folded\n  text\nmetadata: {a: 1, b: [x]}\n---\n# T\n",
		"---\nname: x\ndescription: a\n  b: c\nallowed-tools: [a, b\n---\n",
		"# no frontmatter\n\nprose\n",
		"---\n---\n",
		"---\n- a\n- b\n---\nbody",
		"---\na: &a [x,x]\nb: [*a,*a]\n---\nb",
		"---\nname: \"unterminated\n---\nbody",
		"\n\n---\nname: x\n---\n",
		"---\nname: x\ndescription: d\n\x00",
	} {
		f.Add([]byte(seed), false, false)
	}
	f.Fuzz(func(t *testing.T, src []byte, strict, flat bool) {
		opts := &Options{Path: "/root/skills/fuzz-skill/SKILL.md", Flat: flat}
		if strict {
			opts.Mode = Strict
		}
		keep := *opts
		keep.KeepRejected = true
		Parse(src, &keep) // must not panic either
		s, diags := Parse(src, opts)
		if (s == nil) != hasErrors(diags) {
			t.Fatalf("skill %v but errors %v: %v", s != nil, hasErrors(diags), diags)
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		if lines == 1 {
			lines += bytes.Count(src, []byte("\r")) // a CR-only file
		}
		for _, d := range diags {
			if d.Line < 0 || d.Line > lines || d.Column < 0 {
				t.Fatalf("position %d:%d outside a %d-line file: %v", d.Line, d.Column, lines, d)
			}
			if d.Code.Info().Summary == "" {
				t.Fatalf("undocumented code %q", d.Code)
			}
		}
		if s == nil {
			return
		}
		if s.Description == "" {
			t.Fatal("loaded a skill without a description")
		}
		if strict && !ValidName(s.Name) {
			t.Fatalf("strict mode loaded the invalid name %q", s.Name)
		}
		if !strict && !looseName().MatchString(s.Name) {
			t.Fatalf("lenient mode loaded the name %q", s.Name)
		}
		if s.BodyOffset < 0 || s.BodyOffset > len(src) {
			t.Fatalf("body offset %d outside %d bytes", s.BodyOffset, len(src))
		}
	})
}
