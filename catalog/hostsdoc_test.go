package catalog

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/profile"
)

var updateDoc = flag.Bool("update", false, "rewrite the generated part of docs/hosts.md")

const (
	docBegin = "<!-- BEGIN generated from internal/profile/profiles by `go test ./catalog -run TestHostsDoc -update`; do not edit by hand -->"
	docEnd   = "<!-- END generated -->"
)

// TestHostsDoc checks that the hosts × rules table of docs/hosts.md is the
// one the profiles give; -update rewrites it.
func TestHostsDoc(t *testing.T) {
	t.Parallel()
	file := filepath.Join("..", "docs", "hosts.md")
	old, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	head, tail := string(old), ""
	if i := strings.Index(head, docBegin); i >= 0 {
		rest := head[i:]
		head = head[:i]
		if j := strings.Index(rest, docEnd); j >= 0 {
			tail = rest[j+len(docEnd):]
		}
	} else {
		head, tail = splitAfterIntro(head)
	}
	want := head + docBegin + "\n" + hostsTable(profile.All()) + docEnd + tail
	if want == string(old) {
		return
	}
	if *updateDoc {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/hosts.md is stale: run go test ./catalog -run TestHostsDoc -update")
}

// splitAfterIntro splits a page without markers after its first paragraph
// below the title.
func splitAfterIntro(s string) (string, string) {
	i := strings.Index(s, "\n## ")
	if i < 0 {
		return s + "\n", ""
	}
	return s[:i+1], "\n" + s[i+1:]
}

// hostsTable renders the profiles as Markdown: one column per host, one
// row per rule, then each host's notes.
func hostsTable(ps []*profile.Profile) string {
	var b bytes.Buffer
	b.WriteString("\n## The hosts × rules table\n\n")
	b.WriteString("Every row is a field of the host profiles in `internal/profile/profiles/*.json`; `agents` is skillet's own default.\n")
	b.WriteString("A version is the one the profile was checked on against recordings of the real agent (`hosts/`);\n")
	b.WriteString("\"documentation\" means the profile follows the host's documentation and awaits a recording.\n\n")
	b.WriteString("| rule |")
	for _, p := range ps {
		fmt.Fprintf(&b, " `%s` |", p.Name)
	}
	b.WriteString("\n| --- |")
	for range ps {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	yes := func(v bool) string {
		if v {
			return "yes"
		}
		return "no"
	}
	list := func(l []string) string {
		if len(l) == 0 {
			return "none"
		}
		q := make([]string, len(l))
		for i, x := range l {
			q[i] = "`" + x + "`"
		}
		return strings.Join(q, "<br>")
	}
	num := func(n int, zero string) string {
		if n == 0 {
			return zero
		}
		return fmt.Sprint(n)
	}
	walk := map[string]string{"cwd": "working folder only", "git-root": "every parent up to the git root", "cwd+git-root": "working folder and git root", "all": "every parent", "home": "every parent below the home folder"}
	rows := []struct {
		name string
		cell func(p *profile.Profile) string
	}{
		{"host", func(p *profile.Profile) string { return p.Title }},
		{"checked on", func(p *profile.Profile) string {
			if p.Version != "" {
				return p.Version + " (" + p.Checked + ")"
			}
			return p.Checked
		}},
		{"project folders", func(p *profile.Profile) string { return list(p.Roots.Project) }},
		{"user folders", func(p *profile.Profile) string { return list(p.Roots.User) }},
		{"walk up, in a git repository", func(p *profile.Profile) string { return walk[p.Roots.WalkUp] }},
		{"walk up, without .git", func(p *profile.Profile) string { return walk[p.Roots.NoGit] }},
		{"git root marked by", func(p *profile.Profile) string {
			if p.Roots.GitMarker == "dir" {
				return "a `.git` folder only"
			}
			return "a `.git` folder or file"
		}},
		{"folders read in parents", func(p *profile.Profile) string {
			if len(p.Roots.WalkUpRoots) == 0 {
				return "every project folder"
			}
			return list(p.Roots.WalkUpRoots)
		}},
		{"folders of plugins", func(p *profile.Profile) string {
			if len(p.Roots.Plugins) == 0 {
				return "none"
			}
			return list(p.Roots.Plugins)
		}},
		{"nearer folder first", func(p *profile.Profile) string { return yes(p.Roots.NearestFirst) }},
		{"depth below a root", func(p *profile.Profile) string {
			switch p.Discovery.MaxDepth {
			case 0:
				return "any"
			case 1:
				return "`NAME/SKILL.md` only"
			}
			return fmt.Sprintf("up to %d folders", p.Discovery.MaxDepth)
		}},
		{"`SKILL.md` directly in a root", func(p *profile.Profile) string { return yes(p.Discovery.RootSkill) }},
		{"skill inside a skill folder", func(p *profile.Profile) string {
			if p.Discovery.Nested {
				return "loaded"
			}
			return "bundled file"
		}},
		{"entries skipped", func(p *profile.Profile) string {
			out := list(p.Discovery.Skip)
			roots := make([]string, 0, len(p.Discovery.RootSkip))
			for r := range p.Discovery.RootSkip {
				roots = append(roots, r)
			}
			slices.Sort(roots)
			for _, r := range roots {
				out += "<br>in `" + r + "`: " + list(p.Discovery.RootSkip[r])
			}
			return out
		}},
		{"`skill.md` in another case", func(p *profile.Profile) string { return yes(p.Discovery.AnyCase) }},
		{"flat `NAME.md`", func(p *profile.Profile) string {
			if p.Discovery.Flat && len(p.Discovery.FlatRoots) > 0 {
				return "in " + list(p.Discovery.FlatRoots)
			}
			return yes(p.Discovery.Flat)
		}},
		{"folders per root", func(p *profile.Profile) string { return num(p.Discovery.MaxFolders, "no limit") }},
		{"symlinked folder", func(p *profile.Profile) string {
			return map[bool]string{true: "followed", false: "skipped"}[p.Symlinks.Folders]
		}},
		{"`SKILL.md` that is a symlink", func(p *profile.Profile) string {
			return map[bool]string{true: "read", false: "skipped"}[p.Symlinks.Files]
		}},
		{"link out of the workspace", func(p *profile.Profile) string {
			return map[bool]string{true: "refused", false: "followed"}[p.Symlinks.InsideWorkspace]
		}},
		{"root that is a symlink", func(p *profile.Profile) string {
			return map[bool]string{true: "reported by its target", false: "reported as found"}[p.Symlinks.ResolveRoot]
		}},
		{"one file by two paths", func(p *profile.Profile) string {
			return map[bool]string{true: "loaded once", false: "loaded twice"}[p.Symlinks.SameFileOnce]
		}},
		{"project vs user", func(p *profile.Profile) string {
			if len(p.Precedence.Order) > 0 {
				return "interleaved: " + list(p.Precedence.Order)
			}
			return map[bool]string{true: "user wins", false: "project wins"}[p.Precedence.UserFirst]
		}},
		{"same name twice", func(p *profile.Profile) string {
			return map[string]string{"first": "first loads", "all": "every copy loads", "any": "one loads, not always the same"}[p.Precedence.Duplicates]
		}},
		{"name shown", func(p *profile.Profile) string {
			if p.Names.Source == "folder" {
				return "folder name"
			}
			return map[string]string{"": "`name` as written", "kebab": "`name` in kebab-case", "path-chars": "`name`, `:\\/<>*?\"\\|` become `-`", "spaces": "`name`, white space becomes `-`"}[p.Names.Normalize]
		}},
		{"no `name`", func(p *profile.Profile) string {
			if p.Names.Source == "folder" {
				return "folder name"
			}
			return map[bool]string{true: "dropped", false: "folder name"}[p.Names.Required]
		}},
		{"`name: \"\"`", func(p *profile.Profile) string {
			if p.Names.Source == "folder" {
				return "folder name"
			}
			if p.Names.EmptyName == "" && p.Names.Required {
				return "dropped"
			}
			return map[string]string{"": "folder name", "drop": "dropped", "keep": "listed with the empty name"}[p.Names.EmptyName]
		}},
		{"name differs from folder: shown", func(p *profile.Profile) string {
			if p.Names.Alias {
				return "`FOLDER (NAME)`, first of a name only"
			}
			return "as the row above"
		}},
		{"skill of a plugin", func(p *profile.Profile) string {
			if p.Names.Plugin {
				return "`PLUGIN:NAME`, from the plugin's `skills` folder"
			}
			return "as any skill"
		}},
		{"name limit", func(p *profile.Profile) string {
			return num(p.Names.MaxChars, "none")
		}},
		{"name rule", func(p *profile.Profile) string {
			if p.Names.Pattern == "" {
				return "none"
			}
			return "`" + strings.ReplaceAll(p.Names.Pattern, "|", "\\|") + "`"
		}},
		{"name differs from folder", func(p *profile.Profile) string {
			return map[bool]string{true: "dropped", false: "loaded"}[p.Names.MatchFolder]
		}},
		{"UTF-8 BOM", func(p *profile.Profile) string {
			return map[string]string{"strip": "ignored", "drop": "dropped"}[p.Parse.BOM]
		}},
		{"no frontmatter", func(p *profile.Profile) string {
			return map[string]string{"drop": "dropped", "load": "loaded"}[p.Parse.NoFrontmatter]
		}},
		{"frontmatter ends at", func(p *profile.Profile) string {
			switch p.Parse.Fences {
			case "exact":
				return "a line that is exactly `---`"
			case "closing-prefix":
				return "a line starting with `---` (`----`, `--- x`)"
			case "prefix":
				return "a line starting with `---`; it opens with any line starting with `---`"
			}
			return map[bool]string{true: "the first `---`, even inside a line", false: "a `---` line"}[p.Parse.FenceAnywhere]
		}},
		{"`<<` merge keys", func(p *profile.Profile) string {
			return map[string]string{"": "a key like any other", "apply": "name and description taken from the merged map"}[p.Parse.MergeKeys]
		}},
		{"description line breaks", func(p *profile.Profile) string {
			return map[bool]string{true: "shown as spaces", false: "kept"}[p.Parse.OneLine]
		}},
		{"description white space", func(p *profile.Profile) string {
			return map[bool]string{true: "as the YAML value, final line break included", false: "trimmed"}[p.Parse.KeepSpace]
		}},
		{"frontmatter reader", func(p *profile.Profile) string {
			return map[string]string{"strict": "YAML", "repair": "YAML, an unquoted `: ` repaired", "subset": "only `key: value` lines"}[p.Parse.YAML]
		}},
		{"frontmatter it cannot read", func(p *profile.Profile) string {
			if p.Parse.YAML == "subset" {
				return "never happens"
			}
			return map[string]string{"": "dropped", "drop": "dropped", "lines": "line reader for name and description", "single-lines": "line reader for name and description, one line each", "last-lines": "line reader for name and description, the last of each", "key-lines": "line reader for every `key: value` line, the last of each, values typed", "empty": "loaded with no metadata"}[p.Parse.BrokenYAML]
		}},
		{"name or description not a string", func(p *profile.Profile) string {
			return map[string]string{"": "its text (none for a list or map)", "drop": "dropped", "broken": "as YAML it cannot read", "js-string": "JavaScript's `String()` of it (a list joined by commas); a map: dropped"}[p.Parse.NonString]
		}},
		{"no or empty description", func(p *profile.Profile) string {
			return map[string]string{"drop": "dropped", "empty": "loaded, empty", "body": "first prose line of the body", "first-line": "first line of the body, a heading's text included", "body-text": "the body's text without headings, on one line"}[p.Parse.Description]
		}},
		{"`description: \"\"`", func(p *profile.Profile) string {
			if p.Parse.EmptyDescription == "load" {
				return "loaded, empty"
			}
			return "as a missing one"
		}},
		{"long description", func(p *profile.Profile) string {
			switch p.Parse.LongDescription {
			case "drop":
				return fmt.Sprintf("over %d: dropped", p.Parse.MaxDescriptionChars)
			case "cut":
				return fmt.Sprintf("cut at %d, then `%s`", p.Parse.MaxDescriptionChars, p.Parse.Suffix)
			}
			return "kept"
		}},
		{"bytes read per file", func(p *profile.Profile) string { return num(p.Parse.MaxSkillBytes, "all") }},
		{"empty body", func(p *profile.Profile) string {
			return map[string]string{"": "loaded", "load": "loaded", "drop": "dropped"}[p.Parse.EmptyBody]
		}},
		{"`disable-model-invocation`", func(p *profile.Profile) string {
			if !p.Disclosure.HidesDisabled {
				return "ignored"
			}
			return map[string]string{"": "hidden from the model", "true": "hidden from the model (`true` or `\"true\"`)", "boolean": "hidden from the model (the boolean `true` only)"}[p.Disclosure.DisabledWhen]
		}},
		{"catalog cuts descriptions at", func(p *profile.Profile) string {
			if p.Disclosure.CatalogChars == 0 {
				return "no cut"
			}
			s := fmt.Sprint(p.Disclosure.CatalogChars)
			if p.Disclosure.CatalogSuffix != "" {
				s += ", then `" + p.Disclosure.CatalogSuffix + "`"
			}
			return s
		}},
		{"`<` and `>` in descriptions", func(p *profile.Profile) string {
			return map[bool]string{true: "`&lt;` `&gt;`", false: "as written"}[p.Disclosure.EscapeAngles]
		}},
		{"catalog budget: names first, then descriptions that fit", func(p *profile.Profile) string {
			s := num(p.Disclosure.BudgetChars, "no limit")
			if p.Disclosure.BudgetChars > 0 && p.Disclosure.Units == "utf16" {
				s += " UTF-16 units"
			}
			return s
		}},
		{"fields of a required type", func(p *profile.Profile) string {
			var out []string
			for _, k := range slices.Sorted(maps.Keys(p.Parse.FieldTypes)) {
				out = append(out, fmt.Sprintf("`%s`: a %s", k, p.Parse.FieldTypes[k]))
			}
			for _, k := range p.Parse.StringFields {
				out = append(out, fmt.Sprintf("`%s`: a string", k))
			}
			if len(out) == 0 {
				return "none"
			}
			return strings.Join(out, "<br>") + "<br>else dropped"
		}},
		{"`paths`", func(p *profile.Profile) string {
			if p.Disclosure.Paths == "conditional" {
				return "hidden until a matching file is read; an absolute or `..` entry: dropped"
			}
			return "ignored"
		}},
		{"catalog budget: past it, first lines only", func(p *profile.Profile) string {
			fl := p.Disclosure.FirstLines
			if fl.Chars == 0 {
				return "none"
			}
			return fmt.Sprintf("%d UTF-16 units, its own skills' %d included", fl.Chars, fl.BuiltinChars)
		}},
		{"when_to_use", func(p *profile.Profile) string {
			if p.Parse.WhenToUse == "" {
				return "not shown"
			}
			return fmt.Sprintf("appended after `%s`", p.Parse.WhenToUse)
		}},
		{"key given twice", func(p *profile.Profile) string {
			return map[string]string{"": "first value", "last": "last value", "drop": "not loaded", "broken": "as YAML it cannot read"}[p.Parse.DuplicateKeys]
		}},
		{"location shown", func(p *profile.Profile) string {
			return map[string]string{"": "the `SKILL.md`", "file": "the `SKILL.md`", "folder": "the skill folder"}[p.Disclosure.Location]
		}},
		{"skills in the catalog", func(p *profile.Profile) string { return num(p.Disclosure.MaxSkills, "all") }},
		{"catalog budget in tokens (shared by every description)", func(p *profile.Profile) string {
			sh := p.Disclosure.Share
			if sh.Tokens == 0 {
				return "none"
			}
			s := fmt.Sprintf("%d, less the roots table", sh.Tokens)
			if len(sh.Builtins) > 0 {
				s += fmt.Sprintf("; its %d own skills count first", len(sh.Builtins))
			}
			return s
		}},
		{"catalog budget", func(p *profile.Profile) string {
			if p.Disclosure.Budget == "" {
				return "none"
			}
			return p.Disclosure.Budget
		}},
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s |", r.name)
		for _, p := range ps {
			fmt.Fprintf(&b, " %s |", r.cell(p))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## Known gaps\n\nRecorded behaviour a profile does not reproduce yet (the comparison test reports each):\n\n")
	gaps := 0
	for _, p := range ps {
		for _, g := range p.Gaps {
			fmt.Fprintf(&b, "- `%s` on workspace `%s`: %s\n", p.Name, g.Workspace, g.What)
			gaps++
		}
	}
	if gaps == 0 {
		b.WriteString("- none\n")
	}
	b.WriteString("\n## Where the rules come from\n\n")
	for _, p := range ps {
		for _, src := range p.Sources {
			fmt.Fprintf(&b, "- `%s` `%s`: %s\n", p.Name, src.Rule, src.From)
		}
	}
	b.WriteString("\n## Notes per host\n\n")
	for _, p := range ps {
		if len(p.Notes) == 0 {
			continue
		}
		fmt.Fprintf(&b, "- `%s` (%s):", p.Name, p.Title)
		for _, n := range p.Notes {
			b.WriteString(" " + n)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}
