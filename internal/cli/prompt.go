package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/agentx"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/internal/textsafe"
)

// PromptOptions are the flags and dependencies of skillet prompt.
type PromptOptions struct {
	IO      *IO
	Catalog func(context.Context) (*catalog.Catalog, error)
	Quiet   bool

	Format   agent.Format // --format
	Template string       // --template: a text/template file, read when the command runs
	Provider string       // --provider: one of agent.ProviderNames
	// BudgetChars is --budget-chars: 0 when not given (the configuration's
	// catalogBudgetChars applies), -1 for an explicit 0 (no budget).
	BudgetChars int
}

// NewCmdPrompt returns skillet prompt. Its RunE checks the flags, fills a
// PromptOptions and calls runF with it, or promptRun when runF is nil.
func NewCmdPrompt(f *Factory, runF func(context.Context, *PromptOptions) error) *cobra.Command {
	opts := &PromptOptions{IO: f.IO, Catalog: f.IndexedCatalog}
	var format, provider string
	cmd := &cobra.Command{
		Use:   "prompt",
		Short: "Print the skills block a model sees in its system prompt",
		Long: `Print the catalog block that goes into a model's system prompt
(docs/disclosure.md#catalog-block): a preamble saying how to load a skill
with the tool, then each listed skill's name, description, when-to-use hint
and location. Hidden skills (disable-model-invocation) are left out;
descriptions are cut at maxDescriptionChars (240).

--format picks xml (default), markdown or json; --template renders a Go
text/template over the same data instead (fields .Preamble, .ToolName,
.Skills with .Name .Description .WhenToUse .Location .NameOnly, .LeftOut,
.Note; functions xml and json). --budget-chars bounds the block in
characters: descriptions are dropped from the end first, then entries, and
the last line says how many skills are not shown. --provider prints the
skills layer of that provider's system-prompt stack: ollama has none.

A line on stderr gives the block's size and what was left out, and
another says so when the walk of a root stopped at a limit.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Template != "" && cmd.Flags().Changed("format") {
				return usagef("--template and --format cannot be used together")
			}
			var err error
			if opts.Format, err = agent.ParseFormat(format); err != nil {
				return usagef("--format: %v%s", err, didYouMean(format, promptFormats))
			}
			if opts.BudgetChars < 0 {
				return usagef("--budget-chars must be 0 or more")
			}
			if opts.BudgetChars == 0 && cmd.Flags().Changed("budget-chars") {
				opts.BudgetChars = -1 // an explicit 0 turns off the configured budget
			}
			if opts.Provider, err = providerName(provider); err != nil {
				return usagef("--provider: %v%s", err, didYouMean(provider, agent.ProviderNames()))
			}
			opts.Quiet = f.Quiet()
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return promptRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "xml", "the block's format: xml, markdown or json")
	fl.StringVar(&opts.Template, "template", "", "render the block with this Go text/template file instead")
	fl.StringVar(&provider, "provider", "default", "the provider preset: "+strings.Join(agent.ProviderNames(), ", "))
	fl.IntVar(&opts.BudgetChars, "budget-chars", 0, "bound the block to this many characters (the preamble and the closing line always stay); 0 turns the budget off (default: catalogBudgetChars from the configuration, else none)")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return promptFormats, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("provider", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return agent.ProviderNames(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// promptFormats are the values prompt --format takes.
var promptFormats = []string{"xml", "markdown", "json"}

func promptRun(ctx context.Context, opts *PromptOptions) error {
	var tmpl *template.Template
	if opts.Template != "" {
		data, _, err := fsx.ReadRegular(opts.Template, 1<<20)
		// A template that cannot be read or parsed is a bad --template
		// value, a usage error (exit 2) like a --config file that does not
		// parse.
		if err != nil {
			return &usageError{fmt.Errorf("--template: reading the template: %w", err)}
		}
		if tmpl, err = agent.ParseTemplate(filepath.Base(opts.Template), string(data)); err != nil {
			return &usageError{fmt.Errorf("--template: parsing the template: %w", err)}
		}
	}
	c, err := opts.Catalog(ctx)
	if err != nil {
		return err
	}
	sk, err := agent.New(ctx, c, &agent.Options{Block: &agent.BlockOptions{Format: opts.Format, Template: tmpl, BudgetChars: opts.BudgetChars}})
	if err != nil {
		return err
	}
	stack, err := agent.NewStack(opts.Provider, &agent.StackOptions{Skills: sk})
	if err != nil {
		return err
	}
	// Over the persistent index, or the walk that writes it on a first
	// run, the block is rendered from what it reads of the listing
	// (catalogx.Hooks.ListBrief): the Listed and hidden skills and the
	// others' names, where the whole listing is 400 bytes a skill; the
	// walk notes come with it. A preset without the skills layer reads
	// no listing.
	layered := slices.Contains(stack.Names(), "skills")
	var brief *catalog.Listing
	var notListed []string
	if layered {
		brief, notListed = catx.ListBrief(ctx, c, isWalkNote)
	}
	if brief != nil {
		ctx = agentx.WithBlockListing(ctx, &agentx.BlockListing{Listing: brief, NotListed: notListed})
	}
	text, err := stack.Render(ctx)
	if err != nil {
		return err
	}
	fmt.Fprint(opts.IO.Out, textsafe.EscapeBlock(text))
	if opts.Quiet {
		return nil
	}
	if !layered {
		fmt.Fprintf(opts.IO.Err, "the %s preset leaves the skills layer out of its system prompt\n", opts.Provider)
		return nil
	}
	b, err := sk.Block(ctx)
	if err != nil {
		return err
	}
	promptSummary(opts.IO, b)
	if brief != nil {
		walkNotes(opts.IO.Err, brief.Diagnostics)
	} else if l, err := c.List(ctx); err == nil {
		walkNotes(opts.IO.Err, l.Diagnostics) // skills past a walk limit are not in the block
	}
	return nil
}

// promptSummary prints the block's size and what it left out on stderr.
func promptSummary(io *IO, b *agent.Block) {
	if len(b.Entries) == 0 && b.LeftOut() == 0 {
		fmt.Fprintln(io.Err, "no skills to list: the block is empty")
		return
	}
	fmt.Fprintf(io.Err, "%s in the block, %d characters (~%d tokens)", outfmt.Count(len(b.Entries), "skill"), b.Chars, b.Tokens())
	if n := len(b.NameOnly); n > 0 {
		fmt.Fprintf(io.Err, "; %d by name only", n)
	}
	if n := len(b.Dropped); n > 0 {
		fmt.Fprintf(io.Err, "; %d left out for the %d-character budget", n, b.BudgetChars)
	}
	if n := len(b.NotListed); n > 0 {
		fmt.Fprintf(io.Err, "; %d beyond maxSkills", n)
	}
	if n := len(b.Hidden); n > 0 {
		fmt.Fprintf(io.Err, "; %d hidden", n)
	}
	fmt.Fprintln(io.Err)
}

// providerName returns the preset named name as agent.ProviderNames spells
// it (name is case-insensitive; "" means "default"), or NewStack's error
// for a name that is none of them.
func providerName(name string) (string, error) {
	if name == "" {
		name = "default"
	}
	for _, p := range agent.ProviderNames() {
		if strings.EqualFold(p, name) {
			return p, nil
		}
	}
	_, err := agent.NewStack(name, nil)
	return "", err
}
