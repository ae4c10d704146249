package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/outfmt"
)

// SearchOptions are the arguments, flags and dependencies of skillet
// search.
type SearchOptions struct {
	IO      *IO
	Catalog func(context.Context) (*catalog.Catalog, error)

	Query string // the arguments, joined by spaces
	Limit int    // --limit: at most this many results, 0 for all
	JSON  bool   // --json
}

// NewCmdSearch returns skillet search. Its RunE fills a SearchOptions and
// calls runF with it, or searchRun when runF is nil.
func NewCmdSearch(f *Factory, runF func(context.Context, *SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{IO: f.IO, Catalog: f.IndexedCatalog}
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Rank the skills by how well they match a query",
		Long: `Rank every skill (those beyond maxSkills and hidden ones included) by how
well its name, description and when-to-use hint match QUERY, best first:
the ranking the load tool's query argument uses (BM25F; a query equal to a
skill's name ranks it first). Prints a table of name, score, scope and
description on a terminal, tab-separated lines of name, score, scope,
location and description otherwise, or JSON with --json. Exits 1 when no
skill matches.`,
		Args: minArgs("QUERY", "takes the words to search the skills' names, descriptions and when-to-use hints for"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Limit < 0 {
				return usagef("--limit must be 0 (no limit) or more")
			}
			opts.Query = strings.Join(args, " ")
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return searchRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVarP(&opts.Limit, "limit", "n", 10, "print at most this many skills (0: all that match)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the results as JSON")
	return cmd
}

func searchRun(ctx context.Context, opts *SearchOptions) error {
	c, err := opts.Catalog(ctx)
	if err != nil {
		return err
	}
	res, err := c.Search(ctx, opts.Query, opts.Limit)
	if errors.Is(err, catalog.ErrEmptyQuery) {
		return usagef("the query %q holds no words to search for", opts.Query)
	}
	if err != nil {
		return err
	}
	if opts.JSON {
		out := []searchJSON{}
		for _, r := range res {
			out = append(out, searchJSON{
				Name: r.Skill.Name, Score: roundScore(r.Score), Description: r.Skill.Description,
				WhenToUse: r.Skill.WhenToUse, Location: slash(r.Skill.Location), Scope: r.Skill.Scope,
				Hidden: r.Skill.Hidden(), Listed: r.Skill.Listed, Matched: r.Matched,
			})
		}
		if err := outfmt.JSON(opts.IO.Out, out); err != nil {
			return err
		}
	} else {
		writeSearch(opts.IO, res)
	}
	if len(res) == 0 {
		fmt.Fprintf(opts.IO.Err, "no skill matches %q\n", opts.Query)
		return silent(exitFail)
	}
	return nil
}

// searchJSON is one result of skillet search --json.
type searchJSON struct {
	Name        string        `json:"name"`
	Score       float64       `json:"score"`
	Description string        `json:"description"`
	WhenToUse   string        `json:"whenToUse"`
	Location    string        `json:"location"`
	Scope       catalog.Scope `json:"scope"`
	Hidden      bool          `json:"hidden"`
	Listed      bool          `json:"listed"`
	Matched     []string      `json:"matched"`
}

func roundScore(f float64) float64 {
	return float64(int64(f*1000+0.5)) / 1000
}

// writeSearch prints results as a table on a terminal, tab-separated
// "name score scope location description" lines otherwise.
func writeSearch(io *IO, res []catalog.SearchResult) {
	if !io.OutTTY {
		for _, r := range res {
			fmt.Fprintf(io.Out, "%s\t%.3f\t%s\t%s\t%s\n", printable(r.Skill.Name), r.Score, scopeLabel(r.Skill), printable(r.Skill.Location), printable(oneLine(r.Skill.Description)))
		}
		return
	}
	if len(res) == 0 {
		return
	}
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	descW := 60
	if io.Width > 0 {
		descW = max(io.Width-50, 20)
	}
	fmt.Fprintln(tw, "NAME\tSCORE\tSCOPE\tDESCRIPTION")
	for _, r := range res {
		fmt.Fprintf(tw, "%s\t%.2f\t%s\t%s\n", printable(r.Skill.Name), r.Score, scopeLabel(r.Skill), clip(printable(oneLine(r.Skill.Description)), descW))
	}
	tw.Flush()
}
