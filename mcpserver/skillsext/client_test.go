package skillsext_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/mcpserver"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// session serves the skills named in a catalog of their own through
// mcpserver with pageSize entries a page, and returns a client session;
// register says whether the client registers the extension's methods.
func session(t *testing.T, pageSize int, register bool, names ...string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ws := t.TempDir()
	for _, n := range names {
		dir := filepath.Join(ws, "skills", n)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		md := "---\nname: " + n + "\ndescription: Does " + n + ".\n---\nBody.\n"
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(ctx, cat, &mcpserver.Options{PageSize: pageSize})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); srv.Run(sctx, st) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	if register {
		if err := skillsext.Register(client); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); cancel(); <-done })
	return cs
}

func TestSkills(t *testing.T) {
	all := []string{"skill://alpha/SKILL.md", "skill://beta/SKILL.md", "skill://gamma/SKILL.md"}
	for _, tt := range []struct {
		name     string
		pageSize int
		stop     int // break after this many entries (0: never)
		want     []string
	}{
		{"one page", 10, 0, all},
		{"a page per skill", 1, 0, all},
		{"two pages", 2, 0, all},
		{"the loop stops early", 1, 2, all[:2]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := session(t, tt.pageSize, true, "gamma", "alpha", "beta")
			var got []string
			for e, err := range skillsext.Skills(context.Background(), cs) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, e.URI)
				if len(e.Resources.Files) == 0 {
					t.Errorf("%s: an empty manifest", e.URI)
				}
				if len(got) == tt.stop {
					break
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Skills = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSkillsUnregistered(t *testing.T) {
	cs := session(t, 10, false, "alpha")
	n := 0
	for e, err := range skillsext.Skills(context.Background(), cs) {
		n++
		if e != nil || err == nil || !strings.Contains(err.Error(), skillsext.MethodListSkills) {
			t.Errorf("entry %v, error %v; want one error naming %s", e, err, skillsext.MethodListSkills)
		}
	}
	if n != 1 {
		t.Errorf("%d values yielded, want 1 (the error)", n)
	}
}
