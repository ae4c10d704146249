package mcpserver_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/mcpserver"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// A server on a folder of skills, and a client over the SDK's in-memory
// transport that lists them through the Skills Extension and reads one.
func Example() {
	ctx := context.Background()
	ws, err := os.MkdirTemp("", "skillet-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(ws)
	dir := filepath.Join(ws, "skills", "release")
	os.MkdirAll(filepath.Join(dir, "references"), 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: release\ndescription: Cut a release.\n---\nFollow references/steps.md.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "references", "steps.md"), []byte("1. Tag.\n"), 0o644)

	cat, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		log.Fatal(err)
	}
	srv, err := mcpserver.New(ctx, cat, nil)
	if err != nil {
		log.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	go srv.Run(ctx, st)

	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	if err := skillsext.Register(client); err != nil {
		log.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	for e, err := range skillsext.Skills(ctx, cs) { // skills/list, page by page
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(e.URI, string(e.Frontmatter))
		for _, r := range e.Resources.Files {
			fmt.Println(" ", r.URI, r.Size, r.Digest[:19]+"...")
		}
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://release/references/steps.md"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Contents[0].MIMEType, ": ", res.Contents[0].Text)
	// Output:
	// skill://release/SKILL.md {"name":"release","description":"Cut a release."}
	//   skill://release/SKILL.md 78 sha256:7b76674cdb63...
	//   skill://release/references/steps.md 8 sha256:0468eb5afca6...
	// text/markdown: 1. Tag.
}
