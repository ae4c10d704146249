package catalog_test

import (
	"context"
	"fmt"
	"log"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/skill"
)

// Skills shipped in the binary (an embed.FS: sourceFS is declared with
// //go:embed all:testdata/sources/skills) and one the program builds,
// in one catalog: the embedded ones come first, at embed:// locations,
// and their bundled files are read from the FS. No temporary folder is
// involved.
func ExampleSource() {
	ctx := context.Background()
	built := &skill.Skill{Name: "farewell", Description: "Say goodbye at the end of a session.", Body: "Wave."}
	c, err := catalog.New(ctx, &catalog.Options{NoProject: true, NoUser: true, NoConfigFile: true,
		Sources: []catalog.Source{
			{FS: sourceFS, Dir: "testdata/sources/skills", Base: "embed://skills"},
			{Skills: []*skill.Skill{built}, Base: "app://builtin"},
		}})
	if err != nil {
		log.Fatal(err)
	}
	l, err := c.List(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range l.Skills {
		fmt.Println(s.Name, s.Location)
	}
	guide, err := c.ReadFile(ctx, "greet", "references/guide.md", 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(guide))
	ld, err := c.Load(ctx, "farewell")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ld.Body)
	// Output:
	// greet embed://skills/greet/SKILL.md
	// review embed://skills/review/SKILL.md
	// farewell app://builtin/farewell/SKILL.md
	// # Guide
	// Use the user's name.
	// Wave.
}
