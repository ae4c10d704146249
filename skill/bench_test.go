package skill

import (
	"fmt"
	"strings"
	"testing"
)

// benchFile builds a SKILL.md of about size bytes: realistic frontmatter
// and a Markdown body.
func benchFile(size int) []byte {
	var b strings.Builder
	b.WriteString("---\nname: release-checklist\n")
	b.WriteString("description: Cut a versioned release without breaking the changelog. Use when the user asks to ship, tag, publish or bump a version.\n")
	b.WriteString("when-to-use: The user asks to ship or tag.\nlicense: Apache-2.0\nallowed-tools: Read Bash(git:*)\n")
	b.WriteString("metadata:\n  owner: platform\n  version: \"1.2\"\n---\n\n# Release checklist\n\n")
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%d. Confirm the working tree is clean, run the tests and read the changelog before tagging.\n", i)
	}
	return []byte(b.String())
}

// BenchmarkParse parses one SKILL.md of the corpus's small, median (3.1 KB)
// and largest-read (60 KB) sizes, with and without the body.
func BenchmarkParse(b *testing.B) {
	for _, size := range []int{1 << 10, 3100, 60 << 10} {
		src := benchFile(size)
		for _, skip := range []bool{false, true} {
			name := fmt.Sprintf("%dB", len(src))
			if skip {
				name += "/frontmatter-only"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				opts := &Options{Path: "/ws/skills/release-checklist/SKILL.md", SkipBody: skip}
				for b.Loop() {
					if s, _ := Parse(src, opts); s == nil {
						b.Fatal("rejected")
					}
				}
			})
		}
	}
}

// BenchmarkParseRepair parses a file whose description needs re-quoting.
func BenchmarkParseRepair(b *testing.B) {
	src := []byte("---\nname: x\ndescription: Use this skill when: the user asks for it\n---\nbody\n")
	b.ReportAllocs()
	for b.Loop() {
		if s, _ := Parse(src, &Options{Path: "/ws/skills/x/SKILL.md"}); s == nil {
			b.Fatal("rejected")
		}
	}
}
