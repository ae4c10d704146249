package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/internal/textsafe"
)

func newShowCmd(f *Factory, io *IO) *cobra.Command {
	var (
		file   string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Print exactly what the load tool returns for a skill",
		Long: `Print exactly what the load tool (use_skill) returns to a model for the
skill NAME (docs/disclosure.md#load-tool): its instructions with the base directory and a
sample of its bundled files, or with --file PATH the text of one bundled
file, read confined to the skill folder.

Hidden skills (disable-model-invocation) are shown too: running this
command is an explicit invocation. An unknown name, or a path the tool
refuses (outside the folder, a folder, binary, too large), exits 1 with the
tool's error text on stderr. --json prints {"tool", "name", "path", "text",
"isError"} on stdout instead of the text.`,
		Args: cobra.ExactArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return completeSkillNames(f)(cmd, args, toComplete)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := f.IndexedCatalog(ctx)
			if err != nil {
				return err
			}
			tool := agent.NewTool(c, &agent.ToolOptions{AllowHidden: true})
			res := tool.Invoke(ctx, agent.Input{Name: args[0], Path: file})
			if asJSON {
				if err := writeJSON(io.Out, showJSON{Tool: tool.Name(), Name: args[0], Path: file, Text: res.Text, IsError: res.IsError}); err != nil {
					return err
				}
			} else if !res.IsError {
				fmt.Fprint(io.Out, textsafe.EscapeBlock(res.Text))
			}
			if res.IsError {
				fmt.Fprintln(io.Err, textsafe.EscapeBlock(res.Text))
				return silent(exitFail)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "print this bundled file (relative to the skill folder) instead of the instructions")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the tool's result as JSON")
	return cmd
}

// showJSON is the shape of skillet show --json.
type showJSON struct {
	Tool    string `json:"tool"`
	Name    string `json:"name"`
	Path    string `json:"path,omitempty"`
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
}
