package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/textsafe"
	"github.com/skillet-go/skillet/lint"
	"github.com/skillet-go/skillet/skill"
)

// fixKinds are the values --fix takes.
var fixKinds = []string{"quote", "name"}

// LintOptions are the arguments, flags and dependencies of skillet lint.
type LintOptions struct {
	IO *IO
	// Config is the catalog options of the global flags, which lint.Run
	// opens with its own options.
	Config func() (*catalog.Options, error)
	Quiet  bool

	Targets     []string         // the PATH and NAME arguments
	Format      string           // --format (--json is json): text, json, sarif or github
	Compat      bool             // --compat
	Hosts       []string         // --target, split at commas
	Fix         *lint.FixOptions // --fix or --diff; nil for neither
	Diff        bool             // --diff
	FailOn      string           // --fail-on: error or warning
	MaxWarnings int              // --max-warnings; -1 for no limit
	Explain     string           // --explain: a code or a --compat rule, checked to exist
	ListRules   bool             // --list-rules
	Rules       *lint.Rules      // --select, --extend-select, --ignore (split at commas); nil for none
}

// lintFlags are the values of lint's flags that LintOptions holds only
// once checked (parse, parseRules).
type lintFlags struct {
	asJSON                      bool
	fix                         string
	target                      []string
	selectR, extendSel, ignoreR []string
}

// NewCmdLint returns skillet lint. Its RunE checks the flags, fills a
// LintOptions and calls runF with it, or lintRun when runF is nil.
func NewCmdLint(f *Factory, runF func(context.Context, *LintOptions) error) *cobra.Command {
	opts := &LintOptions{IO: f.IO, Config: f.Config}
	var raw lintFlags
	cmd := &cobra.Command{
		Use:   "lint [PATH|NAME...]",
		Short: "Check skills for everything an agent would object to",
		Long:  lintLong,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			names, _ := completeSkillNames(f)(cmd, args, toComplete)
			return names, cobra.ShellCompDirectiveDefault
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.parse(cmd, args, raw.asJSON, raw.fix, raw.target); err != nil {
				return err
			}
			if err := opts.parseRules(raw.selectR, raw.extendSel, raw.ignoreR); err != nil {
				return err
			}
			opts.Quiet = f.Quiet()
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return lintRun(cmd.Context(), opts)
		},
	}
	addLintFlags(cmd, opts, &raw)
	addLintCompletions(cmd)
	return cmd
}

// lintLong is skillet lint's help.
const lintLong = `Check every skill file of the workspace with the parser the runtime uses,
including those the runtime skips by name: drafts under entries starting with
"_" and hidden folders starting with "." (not .git or node_modules).
PATH limits the report to files or folders (a folder outside the roots is
checked as an extra root); NAME is a skill's name.

Findings are printed as "path:line:col: level: message [code]", each with a
"help:" line saying what to do, or as JSON (--json, docs/output.md), SARIF
2.1.0 (--format sarif) or GitHub Actions annotations (--format github: at
most 10 per level, as GitHub shows, then a count of the rest, which follow
as plain lines; with $GITHUB_STEP_SUMMARY set, a job summary is appended to
that file); a summary line goes to stderr and says how many findings --fix
would mend.
--explain CODE prints a code's documentation (or a --compat rule's),
--list-rules every code with its level, whether it is on by default, its
fix and source (docs/lint.md). --select, --extend-select and --ignore
choose the rules (codes, or prefixes such as "name"), with the lint: section
of skillet.yaml; a "# skillet: ignore[CODE]" comment in a skill's
frontmatter keeps its codes from being reported for that skill, with or
without --strict (docs/lint.md#choosing-rules).
--strict raises the specification's rules to errors. --compat adds, for
each skill and each host profile (docs/hosts.md), whether the host loads
it, loads it changed (and how) or does not load it (and why), and the
rules of the specification's checkers it breaks. --target HOST[,HOST] makes
"not loaded by a target host" an error, so CI fails exactly when a skill
would not load where it ships.

--fix rewrites what is mechanical and safe: a value that only parsed after
quoting is quoted in the file (line endings and every other byte kept);
--fix=name also makes each name equal its folder (the value goes after
"=": in "--fix name" the word is a PATH|NAME argument). --diff prints the
fixes as a unified diff instead of writing them, and exits 1 when there is
one. --fix works the same with --strict. A file is never replaced when it
changed while skillet ran, is read-only or has several hard links; owner,
mode and extended attributes are kept (docs/lint.md#fixes).

Exit status: 1 when there is at least one error (with --fail-on warning, at
least one warning; with --max-warnings N, more than N warnings) or when
--fix could not write a fix (the file is named with the reason), 0
otherwise, 2 on usage errors.`

// addLintFlags defines lint's flags on cmd: into opts those it takes as
// they are, into raw those parse and parseRules check first.
func addLintFlags(cmd *cobra.Command, opts *LintOptions, raw *lintFlags) {
	fl := cmd.Flags()
	fl.BoolVar(&raw.asJSON, "json", false, "print the report as JSON (docs/output.md); same as --format json")
	fl.StringVar(&opts.Format, "format", "text", "report format: text, json, sarif or github (workflow annotations)")
	fl.StringVar(&opts.Explain, "explain", "", "print the documentation of a diagnostic code, or of a rule --compat reports, and exit")
	fl.BoolVar(&opts.ListRules, "list-rules", false, "list every diagnostic code with its level, fix and source, and exit")
	fl.StringVar(&opts.FailOn, "fail-on", "error", "the lowest level that fails the run (exit 1): error or warning")
	fl.IntVar(&opts.MaxWarnings, "max-warnings", -1, "fail the run (exit 1) when there are more than this many warnings (-1: no limit)")
	fl.BoolVar(&opts.Compat, "compat", false, "add the compatibility report: per host, loads / loads changed / not loaded, and checker rules broken")
	fl.StringSliceVar(&raw.target, "target", nil, "host profiles the skills ship to (comma-separated, repeatable): a skill one of them would not load is an error")
	fl.StringSliceVar(&raw.selectR, "select", nil, "report only these rules: codes or prefixes (name: every name-* code), comma-separated; replaces the defaults and skillet.yaml's lint.select")
	fl.StringSliceVar(&raw.extendSel, "extend-select", nil, "report these rules too (codes or prefixes), such as those off by default")
	fl.StringSliceVar(&raw.ignoreR, "ignore", nil, "do not report these rules (codes or prefixes)")
	fl.StringVar(&raw.fix, "fix", "", "apply safe fixes; --fix=name also sets each name to its folder's")
	fl.Lookup("fix").NoOptDefVal = "quote"
	fl.BoolVar(&opts.Diff, "diff", false, "with --fix (implied), print the fixes as a unified diff instead of writing them")
}

// addLintCompletions registers the shell completions of lint's flags:
// formats, levels, codes (with --compat's rules for --explain), host
// profiles and fix kinds.
func addLintCompletions(cmd *cobra.Command) {
	codes := func(withRules bool) func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var codes []cobra.Completion
			for _, ci := range skill.Codes() {
				codes = append(codes, cobra.CompletionWithDesc(string(ci.Code), ci.Summary))
			}
			if withRules {
				for _, r := range hostRules() {
					codes = append(codes, cobra.CompletionWithDesc(string(r), r.Doc()))
				}
			}
			return codes, cobra.ShellCompDirectiveNoFileComp
		}
	}
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]cobra.Completion{"error", "warning"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("explain", codes(true))
	_ = cmd.RegisterFlagCompletionFunc("target", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return hostCompletions(), cobra.ShellCompDirectiveNoFileComp
	})
	for _, name := range []string{"select", "extend-select", "ignore"} {
		_ = cmd.RegisterFlagCompletionFunc(name, codes(false))
	}
	_ = cmd.RegisterFlagCompletionFunc("fix", cobra.FixedCompletions(fixKinds, cobra.ShellCompDirectiveNoFileComp))
}

// hostCompletions are the names --target completes to: every host profile
// but skillet's own.
func hostCompletions() []cobra.Completion {
	var names []cobra.Completion
	for _, p := range profile.All() {
		if !p.Native {
			names = append(names, p.Name)
		}
	}
	return names
}

// parse checks lint's flags and fills o from them and args. With
// --list-rules or --explain the other flags are not checked.
func (o *LintOptions) parse(cmd *cobra.Command, args []string, asJSON bool, fix string, target []string) error {
	if o.ListRules {
		return nil
	}
	if cmd.Flags().Changed("explain") {
		return checkExplain(o.Explain)
	}
	if o.FailOn != "error" && o.FailOn != "warning" {
		return usagef("unknown --fail-on %q (error or warning)%s", o.FailOn, didYouMean(o.FailOn, []string{"error", "warning"}))
	}
	if asJSON {
		if cmd.Flags().Changed("format") && o.Format != "json" {
			return usagef("--json and --format %s disagree", o.Format)
		}
		o.Format = "json"
	}
	if !slices.Contains(formats, o.Format) {
		return usagef("unknown --format %q (text, json, sarif or github)%s", o.Format, didYouMean(o.Format, formats))
	}
	var err error
	if o.Fix, err = parseFix(cmd.Flags().Changed("fix"), fix, o.Diff); err != nil {
		return err
	}
	if o.Diff && (o.Format != "text" || o.Compat) {
		return usagef("--diff prints a unified diff; it cannot be combined with --json, --format or --compat")
	}
	o.Targets = args
	o.Hosts = nil
	for _, t := range target {
		for _, h := range strings.Split(t, ",") {
			if h = strings.TrimSpace(h); h != "" {
				o.Hosts = append(o.Hosts, h)
			}
		}
	}
	return nil
}

// parseRules fills o.Rules from --select, --extend-select and --ignore
// (each split at commas); a code that is none is a usage error naming the
// nearest.
func (o *LintOptions) parseRules(sel, extend, ign []string) error {
	split := func(vs []string) ([]string, error) {
		var out []string
		for _, v := range vs {
			for _, e := range strings.Split(v, ",") {
				if e = strings.TrimSpace(e); e == "" {
					continue
				}
				if err := lint.CheckRule(e); err != nil {
					return nil, usagef("%s", strings.TrimPrefix(err.Error(), lint.ErrUnknownCode.Error()+": "))
				}
				out = append(out, e)
			}
		}
		return out, nil
	}
	r := &lint.Rules{}
	var err error
	if r.Select, err = split(sel); err != nil {
		return err
	}
	if r.ExtendSelect, err = split(extend); err != nil {
		return err
	}
	if r.Ignore, err = split(ign); err != nil {
		return err
	}
	o.Rules = nil
	if len(r.Select)+len(r.ExtendSelect)+len(r.Ignore) > 0 {
		o.Rules = r
	}
	return nil
}

// lintRun runs skillet lint: the documentation --list-rules or --explain
// asks for, or the report (after the fixes of --fix, or their diff with
// --diff) and the verdict of --fail-on and --max-warnings.
func lintRun(ctx context.Context, o *LintOptions) error {
	io := o.IO
	if o.ListRules || o.Explain != "" {
		return writeLintDocs(io.Out, o)
	}
	catOpts, err := o.Config()
	if err != nil {
		return err
	}
	opts := &lint.Options{Catalog: catOpts, Targets: o.Targets, Compat: o.Compat, Hosts: o.Hosts, Rules: o.Rules}
	r, err := lint.Run(ctx, opts)
	if err != nil {
		return fixValueHint(err, o)
	}
	cwd, _ := os.Getwd()
	fixFailed := 0
	if o.Fix != nil {
		changes, skips, err := lint.Fix(ctx, r, o.Fix)
		if err != nil {
			return err
		}
		for _, s := range skips {
			fmt.Fprintf(io.Err, "%s: not fixed: %s\n", printable(fsx.Display(s.Path, cwd)), printable(s.Err.Error()))
		}
		if o.Diff {
			return printFixDiff(o, r, changes, cwd)
		}
		written, failed := writeFixes(io.Err, changes, cwd)
		fixFailed = failed
		if written > 0 {
			// Report what is left, of the same files: a skill named on
			// the command line may have just been renamed.
			opts.Targets = fixedTargets(o.Targets, r)
			if r, err = lint.Run(ctx, opts); err != nil {
				return err
			}
		}
	}
	if err := writeLintReport(io.Out, o, r, cwd); err != nil {
		return err
	}
	if !o.Quiet {
		fmt.Fprintln(io.Err, r.Summary())
	}
	if fixFailed > 0 {
		return silent(exitFail) // a fix that could not be written is a failure
	}
	return o.verdict(r)
}

// verdict is the exit of a lint run with report r: --fail-on and
// --max-warnings applied.
func (o *LintOptions) verdict(r *lint.Report) error {
	return exitFor(r, o.FailOn, o.MaxWarnings, o.IO.Err)
}

// writeLintDocs writes what --list-rules or --explain asks for: every
// code, a --compat rule's documentation, or a code's.
func writeLintDocs(w io.Writer, o *LintOptions) error {
	if o.ListRules {
		return writeRuleList(w)
	}
	if r := lint.HostRule(o.Explain); slices.Contains(hostRules(), r) {
		return writeExplainRule(w, r)
	}
	ci, err := lookupCode(o.Explain)
	if err != nil {
		return err
	}
	return writeExplain(w, ci)
}

// printFixDiff is --diff: the fixes as a unified diff on stdout, a count on
// stderr, and exit 1 when there is a fix pending (as ruff --diff) or the
// report fails the run.
func printFixDiff(o *LintOptions, r *lint.Report, changes []*lint.Change, cwd string) error {
	for _, c := range changes {
		fmt.Fprint(o.IO.Out, textsafe.EscapeBlock(string(c.Diff(cwd))))
	}
	if !o.Quiet {
		fmt.Fprintf(o.IO.Err, "%s would be fixed; %s\n", outfmt.Count(len(changes), "file"), r.Summary())
	}
	if err := o.verdict(r); err != nil || len(changes) == 0 {
		return err
	}
	return silent(exitFail) // fixes are pending, as ruff --diff says
}

// writeFixes writes each change to its file and says on stderr what was
// fixed, or why a file was not; it returns how many files were written and
// how many failed.
func writeFixes(stderr io.Writer, changes []*lint.Change, cwd string) (written, failed int) {
	for _, c := range changes {
		if err := c.Write(); err != nil {
			fmt.Fprintf(stderr, "%s: not fixed: %s\n", printable(fsx.Display(c.Path, cwd)), printable(err.Error()))
			failed++
			continue
		}
		written++
		for _, f := range c.Fixes {
			fmt.Fprintf(stderr, "%s: fixed: %s\n", printable(fsx.Display(c.Path, cwd)), printable(f))
		}
	}
	return written, failed
}

// writeLintReport writes r to w in o's format: text (with the
// compatibility report after it under --compat), JSON, SARIF, or GitHub
// annotations plus the job summary.
func writeLintReport(w io.Writer, o *LintOptions, r *lint.Report, cwd string) error {
	switch o.Format {
	case "json":
		return r.WriteJSON(w)
	case "sarif":
		return r.WriteSARIF(w, version())
	case "github":
		if err := r.WriteGitHub(w, cwd); err != nil {
			return err
		}
		return writeStepSummary(r, cwd)
	}
	if err := r.WriteText(w, cwd); err != nil || !o.Compat {
		return err
	}
	if len(r.Diagnostics) > 0 && len(r.Compat) > 0 {
		fmt.Fprintln(w)
	}
	return r.WriteCompat(w, cwd)
}

// fixValueHint adds to a target that is no file, folder or skill, and is
// one of --fix's values, that --fix takes its value after "=": in
// "--fix name" the word is read as a target, as with ruff and eslint.
func fixValueHint(err error, o *LintOptions) error {
	if !errors.Is(err, lint.ErrTarget) || o.Fix == nil {
		return err
	}
	for _, t := range o.Targets {
		if slices.Contains(fixKinds, t) && strings.Contains(err.Error(), ": "+t) {
			return fmt.Errorf("%w (--fix takes its value after \"=\": --fix=%s)", err, t)
		}
	}
	return err
}

// fixedTargets are the targets of the run after --fix wrote its fixes: a
// target that is no path but the name of a skill the run checked (which
// --fix=name may just have changed) becomes that skill's folder (flat
// form: its file), so the second run reports on the same files.
func fixedTargets(targets []string, r *lint.Report) []string {
	out := slices.Clone(targets)
	for i, t := range out {
		if _, err := os.Stat(t); err == nil {
			continue
		}
		for _, f := range r.Files {
			if f.Skill && f.Loaded && f.Name == t {
				out[i] = f.Path
				if !f.Flat {
					out[i] = filepath.Dir(f.Path)
				}
				break
			}
		}
	}
	return out
}

// writeStepSummary appends the report's job summary (lint.Report.WriteGitHubSummary)
// to the file $GITHUB_STEP_SUMMARY names, when it is set (in a GitHub
// Actions step); a file it cannot open is an error.
func writeStepSummary(r *lint.Report, cwd string) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("job summary: %w", err)
	}
	if err := r.WriteGitHubSummary(f, cwd); err != nil {
		f.Close()
		return fmt.Errorf("job summary: %w", err)
	}
	return f.Close()
}

// parseFix reads --fix[=KINDS] (a comma-separated list of quote and name;
// quote is always on) and --diff (which implies --fix).
// It returns nil for neither.
func parseFix(set bool, value string, diff bool) (*lint.FixOptions, error) {
	if !set && !diff {
		return nil, nil
	}
	opts := &lint.FixOptions{}
	if set {
		for _, k := range strings.Split(value, ",") {
			switch strings.TrimSpace(k) {
			case "quote":
			case "name":
				opts.Name = true
			default:
				return nil, usagef("unknown --fix %q (quote or name)%s", k, didYouMean(strings.TrimSpace(k), fixKinds))
			}
		}
	}
	return opts, nil
}

// formats are the values --format takes.
var formats = []string{"text", "json", "sarif", "github"}

// exitFor is the run's verdict: exit 1 on an error, on a warning with
// --fail-on warning, or on more warnings than --max-warnings (saying so on
// stderr).
func exitFor(r *lint.Report, failOn string, maxWarnings int, stderr io.Writer) error {
	switch {
	case r.HasErrors():
		return silent(exitFail)
	case failOn == "warning" && r.Counts.Warnings > 0:
		fmt.Fprintf(stderr, "skillet: %s, and --fail-on warning\n", outfmt.Count(r.Counts.Warnings, "warning"))
		return silent(exitFail)
	case maxWarnings >= 0 && r.Counts.Warnings > maxWarnings:
		fmt.Fprintf(stderr, "skillet: %s, over --max-warnings %d\n", outfmt.Count(r.Counts.Warnings, "warning"), maxWarnings)
		return silent(exitFail)
	}
	return nil
}
