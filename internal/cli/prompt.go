package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/textsafe"
)

func newPromptCmd(f *Factory, io *IO) *cobra.Command {
	var (
		format   string
		tmplFile string
		provider string
		budget   int
	)
	cmd := &cobra.Command{
		Use:   "prompt",
		Short: "Print the skills block a model sees in its system prompt",
		Long: `Print the catalog block that goes into a model's system prompt
(docs/disclosure.md#catalog-block): a preamble saying how to load a skill
with the tool, then each listed
skill's name, description, when-to-use hint and location. Hidden skills
(disable-model-invocation) are left out; descriptions are cut at
maxDescriptionChars (240).

--format picks xml (default), markdown or json; --template renders a Go
text/template over the same data instead (fields .Preamble, .ToolName,
.Skills with .Name .Description .WhenToUse .Location .NameOnly, .LeftOut,
.Note; functions xml and json). --budget-chars bounds the block in
characters: descriptions are dropped from the end first, then entries, and
the last line says how many skills are not shown. --provider prints the
skills layer of that provider's system-prompt stack: ollama has none.

A line on stderr gives the block's size and what was left out.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if tmplFile != "" && cmd.Flags().Changed("format") {
				return usagef("--template and --format cannot be used together")
			}
			bf, err := agent.ParseFormat(format)
			if err != nil {
				return usagef("--format: %v", err)
			}
			if budget < 0 {
				return usagef("--budget-chars must be 0 or more")
			}
			p, err := agent.LookupProvider(provider)
			if err != nil {
				return usagef("--provider: %v", err)
			}
			var tmpl *template.Template
			if tmplFile != "" {
				data, _, err := fsx.ReadRegular(tmplFile, 1<<20)
				if err != nil {
					return fmt.Errorf("reading the template: %w", err)
				}
				if tmpl, err = agent.ParseTemplate(filepath.Base(tmplFile), string(data)); err != nil {
					return fmt.Errorf("parsing the template: %w", err)
				}
			}
			c, err := f.IndexedCatalog(ctx)
			if err != nil {
				return err
			}
			if budget == 0 && cmd.Flags().Changed("budget-chars") {
				budget = -1 // an explicit 0 turns off the configured budget
			}
			sk := agent.New(c, &agent.Options{Block: &agent.BlockOptions{Format: bf, Template: tmpl, BudgetChars: budget}})
			stack, err := agent.NewStack(p.Name, &agent.StackOptions{Skills: sk})
			if err != nil {
				return err
			}
			text, err := stack.Render(ctx)
			if err != nil {
				return err
			}
			fmt.Fprint(io.Out, textsafe.EscapeBlock(text))
			if f.Quiet() {
				return nil
			}
			if !p.Skills {
				fmt.Fprintf(io.Err, "the %s preset leaves the skills layer out of its system prompt\n", p.Name)
				return nil
			}
			b, err := sk.Block(ctx)
			if err != nil {
				return err
			}
			promptSummary(io, b)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "xml", "the block's format: xml, markdown or json")
	fl.StringVar(&tmplFile, "template", "", "render the block with this Go text/template file instead")
	fl.StringVar(&provider, "provider", agent.DefaultProvider, "the provider preset: "+strings.Join(agent.ProviderNames(), ", "))
	fl.IntVar(&budget, "budget-chars", 0, "bound the block to this many characters; 0 turns the budget off (default: catalogBudgetChars from the configuration, else none)")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"xml", "markdown", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("provider", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return agent.ProviderNames(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// promptSummary prints the block's size and what it left out on stderr.
func promptSummary(io *IO, b *agent.Block) {
	if len(b.Entries) == 0 && b.LeftOut() == 0 {
		fmt.Fprintln(io.Err, "no skills to list: the block is empty")
		return
	}
	fmt.Fprintf(io.Err, "%s in the block, %d characters (~%d tokens)", plural(len(b.Entries), "skill"), b.Chars, b.Tokens())
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
