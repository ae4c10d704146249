package lint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/lint"
	"github.com/skillet-go/skillet/skill"
)

// Lint a workspace and print its findings the way skillet lint does.
func ExampleRun() {
	ws, _ := os.MkdirTemp("", "lint-example")
	defer os.RemoveAll(ws)
	dir := filepath.Join(ws, "skills", "deploy")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(`---
name: deploy
description: Deploy the service. Use when: the user says ship it.
---

Follow [the runbook](references/runbook.md).
`), 0o644)

	r, err := lint.Run(context.Background(), &lint.Options{
		Catalog: &catalog.Options{Workspace: ws, NoUser: true},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r.WriteText(os.Stdout, ws)
	fmt.Println(r.Summary())
	// Output:
	// skills/deploy/SKILL.md:3:14: warning: the value of "description" is not valid YAML (mapping values are not allowed in this context); it was read as a quoted string [parse-recovered]
	// 	help: quote the value of description (skillet lint --fix)
	// skills/deploy/SKILL.md:6:22: warning: the body links to "references/runbook.md", which does not exist in the skill folder [broken-reference]
	// 	help: fix the path, or add the file to the skill folder
	// 1 file, 1 skill: 0 errors, 2 warnings; 1 fixable with --fix
}

// Quote the value that broke the YAML, changing nothing else.
func ExampleFixSource() {
	src := []byte("---\r\nname: deploy\r\ndescription: Use when: shipping\r\n---\r\n\r\nBody.\r\n")
	out, fixes, err := lint.FixSource(src, nil, &skill.Options{Path: "skills/deploy/SKILL.md"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n%s\n", out, fixes[0])
	// Output:
	// "---\r\nname: deploy\r\ndescription: \"Use when: shipping\"\r\n---\r\n\r\nBody.\r\n"
	// line 3: quoted the value of description
}

// The text a new skill starts from; it loads with no diagnostic.
func ExampleScaffoldSource() {
	src := lint.ScaffoldSource("release-checklist", &lint.ScaffoldOptions{Description: "Publish a release: safely."})
	_, diags := skill.Parse(src, &skill.Options{Path: "skills/release-checklist/SKILL.md"})
	fmt.Printf("%s\n%d diagnostics\n", src[:73], len(diags))
	// Output:
	// ---
	// name: release-checklist
	// description: "Publish a release: safely."
	// ---
	// 0 diagnostics
}
