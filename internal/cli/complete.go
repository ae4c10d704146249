package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// completeSkillNames completes the names of the skills the catalog of the
// global flags loads (hidden ones included: they can be invoked by name),
// each with its description, leaving out names already given. It never
// offers files; on any error it offers nothing.
func completeSkillNames(f *Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c, err := f.IndexedCatalog(cmd.Context())
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		// The skills of the prefix alone, over the persistent index or the
		// walk that writes it (catalogx.Hooks.ListPrefixed), where the
		// whole listing is 400 bytes a skill.
		l := catx.ListPrefixed(cmd.Context(), c, toComplete)
		if l == nil {
			if l, err = c.List(cmd.Context()); err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
		}
		var out []cobra.Completion
		for _, s := range l.Skills {
			if !strings.HasPrefix(s.Name, toComplete) || slices.Contains(args, s.Name) {
				continue
			}
			out = append(out, cobra.CompletionWithDesc(s.Name, clip(oneLine(s.Description), 80)))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
