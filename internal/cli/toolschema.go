package cli

import (
	"context"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/outfmt"
)

// ToolSchemaOptions are the flags and dependencies of skillet tool-schema.
type ToolSchemaOptions struct {
	IO      *IO
	Catalog func(context.Context) (*catalog.Catalog, error)

	API string // --api: mcp, anthropic or openai
}

// toolAPIs are the values --api takes.
var toolAPIs = []string{"mcp", "anthropic", "openai"}

// NewCmdToolSchema returns skillet tool-schema. Its RunE checks --api,
// fills a ToolSchemaOptions and calls runF with it, or toolSchemaRun when
// runF is nil.
func NewCmdToolSchema(f *Factory, runF func(context.Context, *ToolSchemaOptions) error) *cobra.Command {
	opts := &ToolSchemaOptions{IO: f.IO, Catalog: f.IndexedCatalog}
	cmd := &cobra.Command{
		Use:   "tool-schema",
		Short: "Print the load tool's definition as JSON",
		Long: `Print the load tool's definition (docs/disclosure.md#load-tool) as
JSON: its name (toolName, default use_skill), its description, and the JSON
Schema of its input, whose name property is an enum of the skills a model
may load now.

--api picks the shape: mcp (default) prints {"name", "description",
"inputSchema"}; anthropic prints {"name", "description", "input_schema"} as
the Messages API takes it; openai prints {"type": "function", "function":
{"name", "description", "parameters"}} as the Chat Completions API takes it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(toolAPIs, opts.API) {
				return usagef("--api must be mcp, anthropic or openai, not %q%s", opts.API, didYouMean(opts.API, toolAPIs))
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return toolSchemaRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.API, "api", "mcp", "the definition's shape: mcp, anthropic or openai")
	_ = cmd.RegisterFlagCompletionFunc("api", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return toolAPIs, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func toolSchemaRun(ctx context.Context, opts *ToolSchemaOptions) error {
	c, err := opts.Catalog(ctx)
	if err != nil {
		return err
	}
	def, err := agent.NewTool(c, nil).Definition(ctx)
	if err != nil {
		return err
	}
	switch opts.API {
	case "anthropic":
		return outfmt.JSON(opts.IO.Out, anthropicTool{Name: def.Name, Description: def.Description, InputSchema: def.InputSchema})
	case "openai":
		return outfmt.JSON(opts.IO.Out, openaiTool{Type: "function", Function: openaiFunction{
			Name: def.Name, Description: def.Description, Parameters: def.InputSchema,
		}})
	}
	return outfmt.JSON(opts.IO.Out, def)
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
