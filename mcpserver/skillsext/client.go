package skillsext

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Register registers the extension's methods (skills/list, skills/get,
// resources/directory/read) on c, so that its sessions can call them
// (Skills, or mcp.CallCustomMethod with this package's types).
func Register(c *mcp.Client) error {
	return errors.Join(
		mcp.AddSendingCustomMethod[*ListSkillsParams, *ListSkillsResult](c, MethodListSkills),
		mcp.AddSendingCustomMethod[*GetSkillParams, *GetSkillResult](c, MethodGetSkill),
		mcp.AddSendingCustomMethod[*ReadDirectoryParams, *ReadDirectoryResult](c, MethodReadDirectory),
	)
}

// Skills returns every skill the server of cs serves through the
// extension, in the server's order, calling skills/list page by page as
// the loop asks for more. The client of cs must have been registered
// (Register). An error (the call's, or a page that repeats its cursor)
// is yielded once, with a nil entry, and ends the sequence.
func Skills(ctx context.Context, cs *mcp.ClientSession) iter.Seq2[*SkillEntry, error] {
	return func(yield func(*SkillEntry, error) bool) {
		seen := map[string]bool{}
		cursor := ""
		for {
			res, err := mcp.CallCustomMethod[*ListSkillsParams, *ListSkillsResult](ctx, cs, MethodListSkills, &ListSkillsParams{Cursor: cursor})
			if err != nil {
				yield(nil, fmt.Errorf("%s: %w", MethodListSkills, err))
				return
			}
			for _, e := range res.Skills {
				if !yield(e, nil) {
					return
				}
			}
			if res.NextCursor == "" {
				return
			}
			if seen[res.NextCursor] {
				yield(nil, fmt.Errorf("%s: the server returned the cursor %q twice", MethodListSkills, res.NextCursor))
				return
			}
			seen[res.NextCursor] = true
			cursor = res.NextCursor
		}
	}
}
