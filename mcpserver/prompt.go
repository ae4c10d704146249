package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/internal/agentx"
	"github.com/skillet-go/skillet/skill"
)

// promptArgument is the one optional argument of every skill prompt: what
// the user wants the skill applied to.
const promptArgument = "arguments"

// maxPromptFiles is how many bundled files a prompt names.
const maxPromptFiles = 10

// userInvocable reports whether a person may invoke the skill: not when
// its frontmatter says user-invocable: false (Claude Code's field; the
// string "false" too), which keeps a skill for the model only.
func userInvocable(p *skill.Skill) bool {
	v, ok := p.Extra.Get("user-invocable")
	if !ok {
		return true
	}
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return !strings.EqualFold(strings.TrimSpace(v), "false")
	}
	return true
}

// newPrompt makes the skill's prompt (layer 4 of docs/mcp.md), or nil for
// a skill a person may not invoke (user-invocable: false): prompts are how
// a person invokes a skill. Hidden skills (disable-model-invocation) get
// one: a prompt is invoked by the user, which is exactly how such a skill
// is meant to be used.
func newPrompt(sv *served) *mcp.Prompt {
	p := sv.parsed
	if !userInvocable(p) {
		return nil
	}
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
		Arguments:   []*mcp.PromptArgument{{Name: promptArgument, Description: argDesc}},
	}
}

// promptText is the message a skill prompt sends: the skill's instructions,
// where its files are, and the user's request when given.
func promptText(sv *served, body, args string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Use the skill %q for this request. Its instructions follow.\n\n", sv.name)
	fmt.Fprintf(&b, "<skill name=%q uri=%q>\n", sv.name, sv.uri)
	b.WriteString(body)
	b.WriteString("\n</skill>\n\n")
	fmt.Fprintf(&b, "The skill's files are the resources under %s/; a relative path in the skill resolves against that URI.\n", skillURI(sv.name, ""))
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
	if sv == nil || sv.prompt == nil {
		return nil, invalidParams("unknown prompt %q", req.Params.Name)
	}
	// The body is the one the load tool gives, cut at maxSkillBytes with
	// the same note, so every answer about the skill agrees.
	ld, err := snapSource{s}.Load(ctx, sv.cat)
	if err != nil {
		return nil, err
	}
	body := ld.Body
	if ld.Truncated {
		var closed string
		body, closed = agentx.CloseFence(body)
		body += "\n\n" + agentx.TruncationNote(int64(len(sv.byRel[skillFile].bytes())), ld.Bytes, closed, skillURI(sv.name, skillFile)+" (read it with resources/read)")
	}
	return &mcp.GetPromptResult{
		Description: sv.prompt.Description,
		Messages: []*mcp.PromptMessage{{
			Role:    "user",
			Content: &mcp.TextContent{Text: promptText(sv, body, req.Params.Arguments[promptArgument])},
		}},
	}, nil
}
