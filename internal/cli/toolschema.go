package cli

import (
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/agent"
)

func newToolSchemaCmd(f *Factory, io *IO) *cobra.Command {
	var api string
	cmd := &cobra.Command{
		Use:   "tool-schema",
		Short: "Print the load tool's definition as JSON",
		Long: `Print the load tool's definition (docs/disclosure.md#load-tool) as JSON: its name (toolName,
default use_skill), its description, and the JSON Schema of its input, whose
name property is an enum of the skills a model may load now.

--api picks the shape: mcp (default) prints {"name", "description",
"inputSchema"}; anthropic prints {"name", "description", "input_schema"} as
the Messages API takes it; openai prints {"type": "function", "function":
{"name", "description", "parameters"}} as the Chat Completions API takes it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			switch api {
			case "mcp", "anthropic", "openai":
			default:
				return usagef("--api must be mcp, anthropic or openai, not %q", api)
			}
			c, err := f.IndexedCatalog(ctx)
			if err != nil {
				return err
			}
			def, err := agent.NewTool(c, nil).Definition(ctx)
			if err != nil {
				return err
			}
			switch api {
			case "anthropic":
				return writeJSON(io.Out, anthropicTool{Name: def.Name, Description: def.Description, InputSchema: def.InputSchema})
			case "openai":
				return writeJSON(io.Out, openaiTool{Type: "function", Function: openaiFunction{
					Name: def.Name, Description: def.Description, Parameters: def.InputSchema,
				}})
			}
			return writeJSON(io.Out, def)
		},
	}
	cmd.Flags().StringVar(&api, "api", "mcp", "the definition's shape: mcp, anthropic or openai")
	_ = cmd.RegisterFlagCompletionFunc("api", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"mcp", "anthropic", "openai"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// anthropicTool is a tool as the Anthropic Messages API takes it.
type anthropicTool struct {
	Name        string             `json:"name"`
	Description string             `json:"description"`
	InputSchema *jsonschema.Schema `json:"input_schema"`
}

// openaiTool is a function tool as the OpenAI Chat Completions API takes it.
type openaiTool struct {
	Type     string         `json:"type"`
	Function openaiFunction `json:"function"`
}

type openaiFunction struct {
	Name        string             `json:"name"`
	Description string             `json:"description"`
	Parameters  *jsonschema.Schema `json:"parameters"`
}
