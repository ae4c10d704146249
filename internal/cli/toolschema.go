package cli

import (
	"context"
	"slices"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/agentx"
	"github.com/skillet-go/skillet/internal/outfmt"
)

// ToolSchemaOptions are the flags and dependencies of skillet tool-schema.
type ToolSchemaOptions struct {
	IO      *IO
	Catalog func(context.Context) (*catalog.Catalog, error)

	API string // --api: mcp, anthropic, openai (openai-chat), openai-responses or gemini
}

// toolAPIs are the values --api takes: agent.Definition.For's names, and
// openai for openai-chat.
var toolAPIs = []string{"mcp", "anthropic", "openai", "openai-chat", "openai-responses", "gemini"}

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
the Messages API takes it; openai (or openai-chat) prints {"type":
"function", "function": {"name", "description", "parameters"}} as the Chat
Completions API takes it; openai-responses prints {"type": "function",
"name", "description", "parameters", "strict": false} as the Responses API
takes it; gemini prints {"name", "description", "parametersJsonSchema"} as
a functionDeclarations entry of the Gemini API. A Go program gets the same
values from agent.Definition.For.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(toolAPIs, opts.API) {
				return usagef("--api must be mcp, anthropic, openai, openai-responses or gemini, not %q%s", opts.API, didYouMean(opts.API, toolAPIs))
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return toolSchemaRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.API, "api", "mcp", "the definition's shape: mcp, anthropic, openai, openai-responses or gemini")
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
	// The definition reads the skills' names alone: over the persistent
	// index, or the walk that writes it on a first run, the names of the
	// listing (catalogx.Hooks.ListNames), where the whole listing is 400
	// bytes a skill.
	if _, names := catx.ListNames(ctx, c); names != nil {
		ctx = agentx.WithNames(ctx, names.Visible, names.Hidden)
	}
	def, err := agent.NewTool(c, nil).Definition(ctx)
	if err != nil {
		return err
	}
	api := opts.API
	if api == "openai" {
		api = "openai-chat"
	}
	if api == "mcp" {
		return outfmt.JSON(opts.IO.Out, def) // the schema's own key order
	}
	shape, err := def.For(api)
	if err != nil {
		return err
	}
	return outfmt.JSON(opts.IO.Out, shape)
}
