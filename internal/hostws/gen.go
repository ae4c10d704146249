package hostws

import (
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
)

// GenVersion is the version of Generate's output. A recording of a
// generated workspace names the version and seed it was made from
// (Recording.Generator, Recording.Seed), so Generate must give the same
// workspace for the same (version, seed) for as long as such recordings
// exist: change what it makes only under a new version, keeping the old
// one's output (TestGenerateStable pins it).
const GenVersion = 1

// GenName is the workspace name of the generated workspace of seed.
func GenName(version int, seed uint64) string { return fmt.Sprintf("gen%d-%d", version, seed) }

// genProjectRoots and genUserRoots are the folders of every host the
// generator writes skills into: each recorded agent's own, other agents'
// it may read, and a few nobody reads ("skills" is read by skillet's own
// default only). User roots are relative to HOME.
var genProjectRoots = []string{
	".agents/skills", ".claude/skills", ".codex/skills", ".opencode/skills", ".opencode/skill",
	".gemini/skills", ".github/skills", ".copilot/skills", ".qwen/skills", ".pi/skills",
	".kilocode/skills", ".kilo/skills", ".amp/skills", "skills",
}

var genUserRoots = []string{
	".agents/skills", ".claude/skills", ".codex/skills", ".config/opencode/skills",
	".config/opencode/skill", ".opencode/skills", ".gemini/skills", ".copilot/skills",
	".qwen/skills", ".pi/agent/skills", ".config/agents/skills", ".config/amp/skills",
	".config/kilo/skills", ".kilocode/skills",
}

// gen holds one generation's random source and what it has written.
type gen struct {
	r     *rand.Rand
	w     *Workspace
	seq   int
	notes []string
}

// Generate returns the workspace of seed under version GenVersion: a
// project (proj, with its working folder at or below it, a git root, a
// .git file or none), skills in project and user folders of the hosts,
// and symlinks in and out. Each skill draws its folder layout (depth,
// grouping folders, nested skills, dot and underscore folders, clashing
// names whose folders sort differently by name and by path), its
// frontmatter (name kinds; descriptions as plain, quoted and block
// scalars with every chomping indicator, non-string values, anchors and
// merge keys, tabs, duplicate keys, name:value without a space, extra
// fields such as when_to_use and disable-model-invocation with values of
// several types) and its bytes (LF, CRLF or CR line ends, a BOM, fence
// variants). One seed in twelve is a large catalog of 100 to 1,000
// skills with descriptions up to 1,024 characters. The Describe line
// lists the dimensions drawn.
func Generate(seed uint64) *Workspace {
	g := &gen{r: rand.New(rand.NewPCG(seed, GenVersion)), w: &Workspace{Name: GenName(GenVersion, seed), Cwd: "proj"}}
	g.layout()
	if g.r.IntN(12) == 0 {
		g.large()
	} else {
		n := 1 + g.r.IntN(10)
		for range n {
			g.skill(g.root(), g.r.IntN(8) == 0)
		}
		if g.r.IntN(4) == 0 {
			g.clash()
		}
		if g.r.IntN(6) == 0 {
			g.links()
		}
		if g.r.IntN(8) == 0 {
			g.commands()
		}
		if g.r.IntN(10) == 0 {
			g.extension()
		}
	}
	var notes []string
	for _, n := range g.notes {
		if !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	g.w.Describe = fmt.Sprintf("generated (version %d, seed %d): %s", GenVersion, seed, strings.Join(notes, ", "))
	return g.w
}

// layout draws the git root and the working folder.
func (g *gen) layout() {
	switch g.r.IntN(6) {
	case 0:
		g.notes = append(g.notes, "no git")
	case 1:
		g.file("proj/.git", "gitdir: ../outside/worktrees/proj\n")
		g.notes = append(g.notes, ".git file")
	default:
		g.w.Git = append(g.w.Git, "proj")
	}
	switch g.r.IntN(4) {
	case 0:
		g.w.Cwd = "proj/pkg"
	case 1:
		g.w.Cwd = "proj/pkg/sub"
	}
	if g.w.Cwd != "proj" {
		g.notes = append(g.notes, "cwd "+g.w.Cwd)
	}
}

// root draws a skills folder: a project root of the project, of a folder
// between it and the working folder, or a user root.
func (g *gen) root() string {
	if g.r.IntN(4) == 0 {
		return "home/" + pick(g.r, genUserRoots)
	}
	base := "proj"
	if g.w.Cwd != "proj" && g.r.IntN(3) == 0 {
		base = g.w.Cwd
	}
	return base + "/" + pick(g.r, genProjectRoots)
}

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

func (g *gen) file(name, data string) {
	for i, f := range g.w.Files {
		if f.Name == name {
			g.w.Files[i].Data = []byte(data)
			return
		}
	}
	g.w.Files = append(g.w.Files, File{Name: name, Data: []byte(data)})
}

func (g *gen) has(name string) bool {
	for _, f := range g.w.Files {
		if f.Name == name || strings.HasPrefix(f.Name, name+"/") {
			return true
		}
	}
	return false
}

// folder draws the path of a new skill's folder below root.
func (g *gen) folder(root string) string {
	g.seq++
	base := fmt.Sprintf("s%02d-%s", g.seq, pick(g.r, genWords))
	switch g.r.IntN(14) {
	case 0:
		return root + "/." + base
	case 1:
		return root + "/_" + base
	case 2:
		return root + "/group/" + base
	case 3:
		return root + "/a/b/c/d/e/" + base
	case 4:
		return root + "/node_modules/" + base
	case 5:
		return root + "/a/b/c/d/e/f/g/" + base
	case 6:
		// Nested inside an earlier skill of this root, when there is one.
		for i := len(g.w.Files) - 1; i >= 0; i-- {
			if d, ok := strings.CutSuffix(g.w.Files[i].Name, "/SKILL.md"); ok && strings.HasPrefix(d, root+"/") {
				return d + "/sub/" + base
			}
		}
	}
	return root + "/" + base
}

// skill writes one skill below root; plain draws a simple frontmatter.
func (g *gen) skill(root string, plain bool) string {
	dir := g.folder(root)
	name := path.Base(dir)
	name = strings.TrimLeft(name, "._")
	fm := g.frontmatter(name, plain)
	data := g.bytes(fm, "# Heading of "+name+"\n\nFirst paragraph of the body.\n\nSecond paragraph.\n")
	file := "SKILL.md"
	if g.r.IntN(30) == 0 {
		file = "skill.md"
		g.notes = append(g.notes, "skill.md")
	}
	g.file(dir+"/"+file, data)
	return dir
}

// frontmatter draws the lines between the fences of a skill whose folder
// is named folder.
func (g *gen) frontmatter(folder string, plain bool) []string {
	var lines []string
	if plain {
		return []string{"name: " + folder, "description: " + g.sentence(6+g.r.IntN(20))}
	}
	if g.r.IntN(20) == 0 {
		return nil // no frontmatter at all
	}
	name, nameNote := g.name(folder)
	desc, descNote := g.description(folder)
	g.notes = append(g.notes, nameNote, descNote)
	if g.r.IntN(2) == 0 {
		lines = append(lines, name...)
		lines = append(lines, desc...)
	} else {
		lines = append(lines, desc...)
		lines = append(lines, name...)
	}
	for _, extra := range genExtras {
		if g.r.IntN(extra.oneIn) == 0 {
			lines = extra.add(g, lines)
			g.notes = append(g.notes, extra.note)
		}
	}
	return lines
}

// name draws the name line(s) and says which kind it drew.
func (g *gen) name(folder string) ([]string, string) {
	switch k := g.r.IntN(20); k {
	case 0:
		return nil, "no name"
	case 1:
		return []string{`name: ""`}, "empty name"
	case 2:
		return []string{"name: Cap-" + folder}, "upper-case name"
	case 3:
		return []string{"name: odd name_" + folder}, "name with a space"
	case 4:
		return []string{"name: café-" + folder}, "non-ASCII name"
	case 5:
		return []string{`name: "-` + folder + `"`}, "leading hyphen"
	case 6:
		return []string{"name: team/" + folder}, "name with a slash"
	case 7:
		return []string{"name: " + folder + strings.Repeat("x", 60-min(len(folder), 50)+g.r.IntN(12))}, "long name"
	case 8:
		return []string{"name: 12345"}, "number name"
	case 9:
		return []string{"name: '" + folder + "'"}, "quoted name"
	case 10:
		return []string{"name: named-" + folder}, "name differs from folder"
	case 11:
		return []string{"name:" + folder}, "name:value"
	case 12:
		return []string{"name: " + folder + "  # a comment"}, "name with a comment"
	}
	return []string{"name: " + folder}, "name = folder"
}

// description draws the description line(s) and says which kind.
func (g *gen) description(folder string) ([]string, string) {
	text := g.sentence(5 + g.r.IntN(16))
	switch k := g.r.IntN(24); k {
	case 0:
		return nil, "no description"
	case 1:
		return []string{`description: ""`}, "empty description"
	case 2:
		return []string{"description:"}, "null description"
	case 3:
		return []string{"description: Use when: " + text}, "unquoted colon"
	case 4:
		return []string{`description: "Quoted \"` + text + `\"\tand a tab"`}, "double-quoted"
	case 5:
		return []string{"description: 'It''s " + text + "'"}, "single-quoted"
	case 6, 7, 8:
		ind := []string{"", "-", "+"}[g.r.IntN(3)]
		style := []string{"|", ">"}[g.r.IntN(2)]
		indent := ""
		if g.r.IntN(4) == 0 {
			indent = "2"
		}
		lines := []string{"description: " + style + indent + ind, "  " + text, "  second line of " + folder}
		if g.r.IntN(2) == 0 {
			lines = append(lines, "", "  after a blank line")
		}
		if g.r.IntN(3) == 0 {
			lines = append(lines, "", "")
		}
		return lines, "block " + style + indent + ind
	case 9:
		return []string{"description: " + text, "  continued on a second line"}, "plain multi-line"
	case 10:
		return []string{"description: 42"}, "number description"
	case 11:
		return []string{"description: true"}, "boolean description"
	case 12:
		return []string{"description: [" + folder + ", list]"}, "list description"
	case 13:
		return []string{"description:", "  key: " + text}, "map description"
	case 14:
		return []string{"description: " + g.sentence(150+g.r.IntN(60))}, "long description"
	case 15:
		return []string{"description: Uses <b>tags</b> & \"quotes\" for " + text}, "markup"
	case 16:
		return []string{"description: Before dashes --- after " + text}, "dashes"
	case 17:
		return []string{"description: " + text + " ünïcödé — ok"}, "non-ASCII description"
	}
	return []string{"description: " + text}, "plain description"
}

// genExtra is an optional YAML shape or field a frontmatter may get.
type genExtra struct {
	oneIn int
	note  string
	add   func(g *gen, lines []string) []string
}

var genExtras = []genExtra{
	{12, "duplicate description", func(g *gen, l []string) []string {
		return append(l, "description: Second description "+g.sentence(4))
	}},
	{14, "duplicate name", func(g *gen, l []string) []string { return append(l, "name: second-name") }},
	{14, "merge key", func(g *gen, l []string) []string {
		return append([]string{"base: &base", "  description: Merged " + g.sentence(5), "<<: *base"}, l...)
	}},
	{14, "anchor", func(g *gen, l []string) []string {
		return append(l, "note: &n Anchored text", "other: *n")
	}},
	{16, "tab-indented map", func(g *gen, l []string) []string { return append(l, "metadata:", "\tauthor: someone") }},
	{8, "when_to_use", func(g *gen, l []string) []string {
		return append(l, "when_to_use: When "+g.sentence(5))
	}},
	{10, "disable-model-invocation", func(g *gen, l []string) []string {
		return append(l, "disable-model-invocation: "+pick(g.r, []string{"true", `"true"`, "yes", "false", "1"}))
	}},
	{14, "user-invocable false", func(g *gen, l []string) []string { return append(l, "user-invocable: false") }},
	{10, "argument-hint list", func(g *gen, l []string) []string { return append(l, "argument-hint: [query]") }},
	{10, "allowed-tools", func(g *gen, l []string) []string {
		return append(l, pick(g.r, []string{"allowed-tools: Read, Grep", "allowed-tools:", "allowed-tools: [Read, Grep]"}))
	}},
	{10, "metadata map", func(g *gen, l []string) []string {
		return append(l, "metadata:", "  version: 1.0", "  tags: [a, b]")
	}},
	{12, "comment line", func(g *gen, l []string) []string { return append([]string{"# a comment"}, l...) }},
	{20, "license", func(g *gen, l []string) []string { return append(l, "license: MIT") }},
}

// bytes assembles a SKILL.md from frontmatter lines (nil: none) and a
// body, with drawn fences, line ends and byte order mark.
func (g *gen) bytes(fm []string, body string) string {
	var lines []string
	if fm != nil {
		open, closing := "---", "---"
		switch g.r.IntN(24) {
		case 0:
			open = "---  "
			g.notes = append(g.notes, "open fence with trailing spaces")
		case 1:
			closing = "--- "
			g.notes = append(g.notes, "closing fence with a trailing space")
		case 2:
			open, closing = "----", "----"
			g.notes = append(g.notes, "four-dash fences")
		case 3:
			closing = "..."
			g.notes = append(g.notes, "closing ...")
		case 4:
			closing = ""
			g.notes = append(g.notes, "no closing fence")
		}
		lines = append(lines, open)
		lines = append(lines, fm...)
		if closing != "" {
			lines = append(lines, closing)
		}
	} else {
		g.notes = append(g.notes, "no frontmatter")
	}
	text := strings.Join(lines, "\n") + "\n" + body
	if fm == nil {
		text = body
	}
	switch g.r.IntN(16) {
	case 0:
		text = strings.ReplaceAll(text, "\n", "\r\n")
		g.notes = append(g.notes, "CRLF")
	case 1:
		text = strings.ReplaceAll(text, "\n", "\r") + "\n"
		g.notes = append(g.notes, "CR")
	}
	if g.r.IntN(20) == 0 {
		text = "\ufeff" + text
		g.notes = append(g.notes, "BOM")
	}
	return text
}

// clash writes two skills of one name in one root, in folders whose
// order by name differs from their order by path (x and x-y: "x-y/"
// sorts before "x/" as a path, after "x" as a name), or in two roots.
func (g *gen) clash() {
	root := g.root()
	w := pick(g.r, genWords)
	name := "clash-" + w
	a, b := root+"/"+w, root+"/"+w+"-of-the-wise"
	if g.r.IntN(3) == 0 {
		b = g.root() + "/" + w + "-other"
	}
	for _, d := range []string{a, b} {
		if g.has(d) {
			return
		}
		g.file(d+"/SKILL.md", "---\nname: "+name+"\ndescription: Copy in "+d+".\n---\nBody.\n")
	}
	g.notes = append(g.notes, "clash "+path.Base(a)+" / "+path.Base(b))
}

// links adds symlinks: a skill folder from outside, a SKILL.md file, a
// whole root, or one folder linked into two roots.
func (g *gen) links() {
	root := g.root()
	switch g.r.IntN(4) {
	case 0:
		g.file("outside/linked-dir/SKILL.md", "---\nname: linked-dir\ndescription: A folder linked in.\n---\nBody.\n")
		g.w.Symlinks = append(g.w.Symlinks, Link{Link: root + "/linked-dir", Target: "/outside/linked-dir"})
		g.notes = append(g.notes, "linked skill folder")
	case 1:
		g.file("outside/linked-file.md", "---\nname: linked-file\ndescription: A file linked in.\n---\nBody.\n")
		g.w.Symlinks = append(g.w.Symlinks, Link{Link: root + "/linked-file/SKILL.md", Target: "/outside/linked-file.md"})
		g.notes = append(g.notes, "linked SKILL.md")
	case 2:
		if g.has(root) {
			return
		}
		g.file("outside/collection/rooted/SKILL.md", "---\nname: rooted\ndescription: In a linked root.\n---\nBody.\n")
		g.w.Symlinks = append(g.w.Symlinks, Link{Link: root, Target: "/outside/collection"})
		g.notes = append(g.notes, "linked root")
	default:
		other := g.root()
		g.file("outside/shared/SKILL.md", "---\nname: shared\ndescription: One folder linked twice.\n---\nBody.\n")
		g.w.Symlinks = append(g.w.Symlinks, Link{Link: root + "/shared", Target: "/outside/shared"})
		if other != root {
			g.w.Symlinks = append(g.w.Symlinks, Link{Link: other + "/shared", Target: "/outside/shared"})
		}
		g.notes = append(g.notes, "one folder linked into two roots")
	}
}

// commands writes Claude-style command files (.claude/commands/NAME.md).
func (g *gen) commands() {
	base := pick(g.r, []string{"proj/.claude/commands", "home/.claude/commands"})
	for i := range 1 + g.r.IntN(2) {
		g.file(fmt.Sprintf("%s/cmd%d-%s.md", base, i, pick(g.r, genWords)), "---\ndescription: Command "+g.sentence(4)+"\n---\nDo it.\n")
	}
	g.notes = append(g.notes, "commands")
}

// extension writes a user Gemini CLI extension holding a skill
// (~/.gemini/extensions/NAME/skills/SKILL/SKILL.md beside its
// gemini-extension.json).
func (g *gen) extension() {
	ext := "home/.gemini/extensions/ext-" + pick(g.r, genWords)
	g.file(ext+"/gemini-extension.json", `{"name": "`+path.Base(ext)+`", "version": "1.0.0"}`+"\n")
	g.file(ext+"/skills/ext-skill/SKILL.md", "---\nname: ext-skill\ndescription: A skill of a Gemini extension.\n---\nBody.\n")
	g.notes = append(g.notes, "gemini extension")
}

// large writes a catalog of 100 to 1,000 plain skills into one or two
// roots, with descriptions of 20 to 1,024 characters.
func (g *gen) large() {
	n := 100 + g.r.IntN(901)
	roots := []string{"proj/" + pick(g.r, []string{".agents/skills", ".claude/skills", pick(g.r, genProjectRoots)})}
	if g.r.IntN(3) == 0 {
		roots = append(roots, g.root())
	}
	for i := range n {
		root := roots[i%len(roots)]
		name := fmt.Sprintf("l%04d-%s", i, pick(g.r, genWords))
		if g.r.IntN(3) == 0 {
			name += "-" + pick(g.r, genWords) + "-" + pick(g.r, genWords)
		}
		size := 20 + g.r.IntN(1005)
		if g.r.IntN(10) == 0 {
			size = 10 + g.r.IntN(20)
		}
		desc := g.sentence(size/6 + 1)
		if len(desc) > size {
			desc = strings.TrimSpace(desc[:size])
		}
		g.file(root+"/"+name+"/SKILL.md", "---\nname: "+name+"\ndescription: "+desc+"\n---\nBody.\n")
	}
	g.notes = append(g.notes, fmt.Sprintf("large catalog of %d in %s", n, strings.Join(roots, " and ")))
}

// sentence draws n words, the first capitalized, ending with a period.
func (g *gen) sentence(n int) string {
	var b strings.Builder
	for i := range n {
		w := pick(g.r, genWords)
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	b.WriteByte('.')
	return b.String()
}

var genWords = strings.Fields(`alpha build check data deploy draft edit export fetch format graph index lint
merge note parse plan query render report review scan schema search ship sort split sync table test trace
update verify watch write council wise pdf docs chart image audit migrate`)
