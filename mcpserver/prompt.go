package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PromptArgument is the one optional argument of every skill prompt: what
// the user wants the skill applied to.
const PromptArgument = "arguments"

// maxPromptFiles is how many bundled files a prompt names.
const maxPromptFiles = 10

// newPrompt makes the skill's prompt (layer 4 of docs/mcp.md). Hidden
// skills (disable-model-invocation) get one too: a prompt is invoked by the
// user, which is exactly how such a skill is meant to be used.
func newPrompt(sv *served) *mcp.Prompt {
	p := sv.parsed
	desc := p.Description
	if p.Hidden() {
		desc = strings.TrimSpace(desc + " (explicit invocation only: not listed to the model)")
	}
	argDesc := "What to apply the skill to (optional)"
	if v, ok := p.Extra.Get("argument-hint"); ok {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
			argDesc = s
		}
	}
	return &mcp.Prompt{
		Name:        sv.name,
		Description: desc,
		Arguments:   []*mcp.PromptArgument{{Name: PromptArgument, Description: argDesc}},
	}
}

// promptText is the message a skill prompt sends: the skill's instructions,
// where its files are, and the user's request when given.
func promptText(sv *served, args string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Use the skill %q for this request. Its instructions follow.\n\n", sv.name)
	fmt.Fprintf(&b, "<skill name=%q uri=%q>\n", sv.name, sv.uri)
	b.WriteString(sv.parsed.Body)
	b.WriteString("\n</skill>\n\n")
	fmt.Fprintf(&b, "The skill's files are the resources under %s/; a relative path in the skill resolves against that URI.\n", URI(sv.name, ""))
	var bundled []string
	for _, f := range sv.files {
		if f.rel != skillFile {
			bundled = append(bundled, f.uri)
		}
	}
	if len(bundled) > 0 {
		fmt.Fprintf(&b, "Bundled files (up to %d):\n", maxPromptFiles)
		for i, u := range bundled {
			if i == maxPromptFiles {
				fmt.Fprintf(&b, "  ... and %d more\n", len(bundled)-maxPromptFiles)
				break
			}
			fmt.Fprintf(&b, "  %s\n", u)
		}
	}
	if args = strings.TrimSpace(args); args != "" {
		fmt.Fprintf(&b, "\nRequest: %s\n", args)
	}
	return b.String()
}

// getPrompt answers prompts/get from the current snapshot.
func (s *Server) getPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	sv := s.current(ctx).byName[req.Params.Name]
	if sv == nil {
		return nil, invalidParams("unknown prompt %q", req.Params.Name)
	}
	return &mcp.GetPromptResult{
		Description: sv.prompt.Description,
		Messages: []*mcp.PromptMessage{{
			Role:    "user",
			Content: &mcp.TextContent{Text: promptText(sv, req.Params.Arguments[PromptArgument])},
		}},
	}, nil
}
