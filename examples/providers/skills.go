package providers

import (
	"context"
	"embed"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
)

// builtin holds the program's own skills: Brute's debugging skill.
//
//go:embed skills
var builtin embed.FS

// NewSkills wires the workspace's skills, then the embedded ones, to an
// agent: the prompt shows the embedded ones at embed://skills/NAME/SKILL.md.
func NewSkills(ctx context.Context, workspace string) (*agent.Wiring, error) {
	c, err := catalog.New(ctx, &catalog.Options{Workspace: workspace, NoUser: true,
		Sources: []catalog.Source{{}, {FS: builtin, Dir: "skills"}}})
	if err != nil {
		return nil, err
	}
	return agent.New(ctx, c, nil)
}
