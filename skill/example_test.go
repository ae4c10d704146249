package skill_test

import (
	"fmt"

	"github.com/skillet-go/skillet/skill"
)

func ExampleParse() {
	src := []byte(`---
name: Release Checklist
description: Use when: the user asks to ship a version.
---

# Release checklist

1. Confirm the working tree is clean.
`)
	s, diags := skill.Parse(src, &skill.Options{Path: "/ws/skills/release-checklist/SKILL.md"})
	fmt.Println(s.Name)
	fmt.Println(s.Description)
	fmt.Println(s.BodyLines, "body lines")
	for _, d := range diags {
		fmt.Println(d)
	}
	// Output:
	// release-checklist
	// Use when: the user asks to ship a version.
	// 3 body lines
	// /ws/skills/release-checklist/SKILL.md:3:14: warning: the value of "description" is not valid YAML (mapping values are not allowed in this context); it was read as a quoted string [parse-recovered]
	// /ws/skills/release-checklist/SKILL.md:2:7: warning: the name "Release Checklist" was normalised to "release-checklist" [name-normalized]
}

func ExampleParse_strict() {
	src := []byte("---\nname: Release Checklist\ndescription: Ship a version.\n---\nBody.\n")
	s, diags := skill.Parse(src, &skill.Options{Path: "/ws/skills/release-checklist/SKILL.md", Mode: skill.Strict})
	fmt.Println(s == nil)
	fmt.Println(diags[0])
	// Output:
	// true
	// /ws/skills/release-checklist/SKILL.md:2:7: error: the name "Release Checklist" must be lower case [name-invalid]
}
