package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
)

// skillsService is Kestrel's skills service on package catalog: list and
// load per workspace, each workspace's catalog made once and kept, so a
// repeated call re-reads only the files that changed (its stamp cache).
type skillsService struct {
	mu   sync.Mutex
	cats map[string]*catalog.Catalog
}

func (s *skillsService) catalog(ctx context.Context, workspace string) (*catalog.Catalog, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.cats[workspace]; c != nil {
		return c, nil
	}
	c, err := catalog.New(ctx, &catalog.Options{Workspace: workspace, NoUser: true, NoConfigFile: true,
		Directories: []string{".kestrel/skills", "skills"}, MaxSkillBytes: 200})
	if err != nil {
		return nil, err
	}
	s.cats[workspace] = c
	return c, nil
}

// list returns the workspace's skills.
func (s *skillsService) list(ctx context.Context, workspace string) ([]*catalog.Skill, error) {
	c, err := s.catalog(ctx, workspace)
	if err != nil {
		return nil, err
	}
	l, err := c.List(ctx)
	if err != nil {
		return nil, err
	}
	return l.Skills, nil
}

// load returns a skill's body, whether it was truncated, and the bytes
// read.
func (s *skillsService) load(ctx context.Context, workspace, name string) (*catalog.Loaded, error) {
	c, err := s.catalog(ctx, workspace)
	if err != nil {
		return nil, err
	}
	return c.Load(ctx, name)
}

// Example_service is Kestrel's flow: a skills service other code calls
// per workspace (list, load with truncated and bytes, cached by stamp),
// and the use_skill tool with a name, with none, and with an unknown one.
func Example_service() {
	ctx := context.Background()
	ws, err := os.MkdirTemp("", "kestrel-ws-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(ws)
	files := map[string]string{
		".kestrel/skills/release-checklist/SKILL.md": "---\nname: release-checklist\ndescription: Cut a versioned release without breaking the changelog.\nwhen-to-use: The user asks to ship, tag, publish or bump a version.\n---\n\n# Release checklist\n\n1. Confirm the working tree is clean.\n",
		"skills/deploy.md":                           "---\ndescription: Deploy the service.\n---\n\n" + strings.Repeat("Check the dashboards before and after. ", 10),
		"skills/_draft/SKILL.md":                     "---\nname: draft\ndescription: Not ready.\n---\nDraft.\n",
	}
	for name, text := range files {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	svc := &skillsService{cats: map[string]*catalog.Catalog{}}
	skills, err := svc.list(ctx, ws)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range skills {
		fmt.Printf("%s (when to use: %q)\n", s.Name, s.WhenToUse)
	}
	again, _ := svc.list(ctx, ws)
	fmt.Println("second list reuses the parsed skills:", again[0] == skills[0] && again[1] == skills[1])
	ld, err := svc.load(ctx, ws, "deploy")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("deploy: truncated", ld.Truncated, "bytes", ld.Bytes)

	c, _ := svc.catalog(ctx, ws)
	sk, err := agent.New(ctx, c, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, args := range []string{`{"name": "release-checklist"}`, `{}`, `{"name": "relase"}`} {
		res := sk.Tool().Call(ctx, json.RawMessage(args))
		first, _, _ := strings.Cut(res.Text, "\n")
		fmt.Printf("%s -> isError %v: %s\n", args, res.IsError, first)
	}
	fmt.Println("loaded:", sk.Session().Skills())
	// Output:
	// release-checklist (when to use: "The user asks to ship, tag, publish or bump a version.")
	// deploy (when to use: "")
	// second list reuses the parsed skills: true
	// deploy: truncated true bytes 200
	// {"name": "release-checklist"} -> isError false: <skill name="release-checklist">
	// {} -> isError false: Available skills (load one with use_skill {"name": "..."}):
	// {"name": "relase"} -> isError true: unknown skill "relase". Did you mean release-checklist? Available skills: release-checklist, deploy. Call use_skill with {"query": "..."} to search them by what they do.
	// loaded: [release-checklist]
}
