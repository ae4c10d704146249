package catalog_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/skillet-go/skillet/catalog"
)

func Example() {
	ctx := context.Background()
	ws, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(ws)
	dir := filepath.Join(ws, "skills", "release-checklist")
	os.MkdirAll(filepath.Join(dir, "references"), 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: release-checklist\ndescription: Cut a release.\n---\n\nFollow references/steps.md.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "references", "steps.md"), []byte("1. Tag.\n"), 0o644)

	c, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoUser: true})
	if err != nil {
		log.Fatal(err)
	}
	listing, err := c.List(ctx) // cheap to call again: unchanged files are not re-read
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range listing.Skills {
		fmt.Println(s.Name, "-", s.Description, "-", s.Scope)
	}
	loaded, _ := c.Load(ctx, "release-checklist")
	fmt.Println(loaded.Body)
	steps, _ := c.ReadFile(ctx, "release-checklist", "references/steps.md", 1<<20)
	fmt.Print(string(steps))
	_, err = c.ReadFile(ctx, "release-checklist", "../../../etc/passwd", 1<<20)
	fmt.Println(err)
	// Output:
	// release-checklist - Cut a release. - project
	// Follow references/steps.md.
	// 1. Tag.
	// path is outside the skill folder: "../../../etc/passwd" climbs out with ".."
}
