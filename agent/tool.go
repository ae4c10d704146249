package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/agentx"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/outfmt"
)

// Limits and defaults of the load tool.
const (
	// defaultMaxFileBytes caps a bundled-file read (the "path" argument):
	// a larger file gets an error result instead of its text.
	defaultMaxFileBytes = 256 << 10
	// sampledFiles is how many bundled files a load result lists
	// ("Bundled files (sampled, up to 10)"; docs/disclosure.md#load-tool).
	sampledFiles = 10
	// defaultSearchLimit is how many skills a "query" call returns.
	defaultSearchLimit = 5
	// defaultMaxEnum is the most skill names the input schema lists as the
	// name enum; with more skills the name is a plain string.
	defaultMaxEnum = 1000
	// maxArgumentBytes bounds the raw JSON arguments of one call.
	maxArgumentBytes = 64 << 10
	// maxNamesInError bounds how many names an error result lists.
	maxNamesInError = 100
)

// input is the load tool's argument object (docs/disclosure.md#load-tool). Every field is
// optional; which ones are set selects the call:
//
//	{}                              list the available skills (Kestrel)
//	{"name": N}                     load skill N's instructions
//	{"name": N, "path": P}          read bundled file P of skill N
//	{"query": Q}                    search every skill for Q
type input struct {
	Name  string `json:"name,omitempty" jsonschema:"The name of the skill to load, exactly as listed. Leave it out to list the available skills."`
	Path  string `json:"path,omitempty" jsonschema:"A file of the skill to read instead of its instructions, relative to the skill's base directory, for example references/guide.md. Needs name."`
	Query string `json:"query,omitempty" jsonschema:"Words describing the task, to search every skill by name, description and when-to-use, including skills not listed in the prompt. Use without name."`
}

// Result is the outcome of one call: text for the model, and whether it
// is an error. Errors are results, never Go errors or panics, so the model
// can read them and retry (an MCP server puts Text in a text content block
// and IsError in CallToolResult.IsError).
type Result struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
}

func errorResult(format string, args ...any) Result {
	return Result{Text: fmt.Sprintf(format, args...), IsError: true}
}

// ToolOptions configure [NewTool]. A nil *ToolOptions means the zero value.
type ToolOptions struct {
	// Name is the tool's name; "" means the catalog's toolName setting
	// (default use_skill, Kestrel).
	Name string
	// Session records every successful load; nil means a new session of
	// the tool's own (see [Tool.Session]). Build one Tool per conversation
	// (or per MCP session) to keep their records apart; a Tool is cheap.
	Session *Session
	// Skills, when not nil, restricts the tool to the skills of these
	// names: the caller's own list (Brute). An empty non-nil slice
	// means no skills at all. Hidden skills in it stay hidden. NewTool
	// takes the names as given; [New] (Options.Skills) also refuses a
	// skill the catalog does not hold, so that the prompt and the tool
	// agree: prefer it.
	Skills []*catalog.Skill
	// AllowHidden lets the tool load hidden skills
	// (disable-model-invocation) by explicit name. Leave it false for a
	// tool the model calls: such skills are for explicit invocation only
	// (Brute; Claude Code also refuses model calls for them), so the
	// call gets an error result saying so. Set it for a person's explicit
	// invocation (skillet show, a slash command). Hidden skills are never
	// listed, searched, or put in the schema's enum.
	AllowHidden bool
	// MaxFileBytes caps bundled-file reads; 0 means 256 KiB (262,144 bytes): a
	// larger file gets an error result instead of its text.
	MaxFileBytes int64
	// MaxEnum caps the name enum of the input schema; 0 means
	// 1,000 names (more skills make name a plain string), negative means never an enum.
	MaxEnum int
	// SearchLimit is how many skills a query call returns; 0 means 5.
	SearchLimit int
	// Description replaces the tool's description (by default what it does and its four
	// calls, as Definition gives it);
	// a server may append the catalog block to it, as some clients expect
	// the catalog in the tool's description.
	Description string
	// BaseDir returns what results state as a skill's base directory; nil
	// means its absolute folder (catalog.Skill.BaseDir). An agent whose
	// shell sees the skills under another path (a container, a sandbox)
	// returns that path; the MCP server returns skill://NAME/.
	BaseDir func(*catalog.Skill) string

	hooks *agentx.ToolHooks // the MCP server's (internal/agentx)
}

// Tool is the load tool of docs/disclosure.md#load-tool: stage 2 (a skill's
// instructions) and stage 3 (its bundled files) of progressive disclosure,
// plus listing and search. It reads from one [catalog.Catalog] on every
// call, so skills added, edited or removed on disk are seen without a
// restart; the name enum of its schema is computed per call for the same
// reason. It does not depend on any transport: hand [Tool.Definition] to a
// provider's tool-calling API or an MCP server, and pass the model's raw
// arguments to [Tool.Call]. A Tool is safe for concurrent use.
type Tool struct {
	c           *catalog.Catalog
	name        string
	session     *Session
	only        map[string]bool // nil: every skill
	allowHidden bool
	maxFile     int64
	maxEnum     int
	searchLimit int
	baseDir     func(*catalog.Skill) string
	wholeFile   func(*catalog.Skill) string
	description string
	listing     func(ctx context.Context) (*catalog.Listing, error)
	source      agentx.Source
}

func init() {
	agentx.Register(func(opts *ToolOptions, h *agentx.ToolHooks) { opts.hooks = h })
}

// diskSource reads through the catalog.
type diskSource struct{}

func (diskSource) Load(_ context.Context, s *catalog.Skill) (*catalog.Loaded, error) { return s.Load() }
func (diskSource) Files(ctx context.Context, s *catalog.Skill) ([]catalog.File, bool, error) {
	return s.Files(ctx, 0)
}
func (diskSource) ReadFile(_ context.Context, s *catalog.Skill, rel string, limit int64) ([]byte, error) {
	return s.ReadFile(rel, limit)
}

// NewTool returns the load tool over c.
func NewTool(c *catalog.Catalog, opts *ToolOptions) *Tool {
	var o ToolOptions
	if opts != nil {
		o = *opts
	}
	t := &Tool{c: c, name: o.Name, session: o.Session, allowHidden: o.AllowHidden,
		maxFile: o.MaxFileBytes, maxEnum: o.MaxEnum, searchLimit: o.SearchLimit, baseDir: o.BaseDir, description: o.Description}
	if h := o.hooks; h != nil {
		t.wholeFile, t.listing, t.source = h.WholeFile, h.Listing, h.Source
	}
	if t.source == nil {
		t.source = diskSource{}
	}
	if t.listing == nil {
		t.listing = c.List
	}
	if t.name == "" {
		t.name = c.Settings().ToolName
	}
	if t.name == "" {
		t.name = catalogx.DefaultToolName
	}
	if t.session == nil {
		t.session = NewSession(nil)
	}
	if o.Skills != nil {
		t.only = make(map[string]bool, len(o.Skills))
		for _, s := range o.Skills {
			if s != nil {
				t.only[s.Name] = true
			}
		}
	}
	if t.maxFile <= 0 {
		t.maxFile = defaultMaxFileBytes
	}
	if t.maxEnum == 0 {
		t.maxEnum = defaultMaxEnum
	}
	if t.searchLimit <= 0 {
		t.searchLimit = defaultSearchLimit
	}
	if t.baseDir == nil {
		t.baseDir = func(s *catalog.Skill) string { return s.BaseDir }
	}
	if t.wholeFile == nil {
		t.wholeFile = func(s *catalog.Skill) string { return s.Location }
	}
	return t
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

// describe returns the tool's description for the model.
func (t *Tool) describe() string {
	if t.description != "" {
		return t.description
	}
	return defaultToolDescription
}

// defaultToolDescription is the load tool's description: what it does and
// its four calls.
const defaultToolDescription = "Loads an Agent Skill: instructions for one kind of task, listed in the system prompt. " +
	`Call it with {"name": NAME} to load a skill's instructions before working on a task it matches, ` +
	`with {"name": NAME, "path": PATH} to read one of the skill's bundled files, ` +
	`with {"query": WORDS} to search for a skill that is not listed, and with {} to list the skills.`

// baseSchema is the schema inferred from input, computed once.
var baseSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return jsonschema.For[input](nil)
})

// schemaFor returns the input schema for the names of the skills the
// model may load (visibleNames).
func (t *Tool) schemaFor(names []string) (*jsonschema.Schema, error) {
	base, err := baseSchema()
	if err != nil {
		return nil, fmt.Errorf("inferring the tool's input schema: %w", err)
	}
	s := base.CloneSchemas()
	name := s.Properties["name"]
	switch {
	case len(names) == 0:
		name.Description += " No skills are available now."
	case t.maxEnum > 0 && len(names) <= t.maxEnum:
		name.Enum = make([]any, len(names))
		for i, n := range names {
			name.Enum[i] = n
		}
	}
	return s, nil
}

// Definition is a tool definition in the shape every tool-calling API
// shares: name, description and a JSON Schema for the input. It marshals
// as {"name", "description", "inputSchema"} (the MCP spelling); Anthropic
// calls the schema input_schema and OpenAI parameters, and both take the
// same object (see examples/agent/README.md).
type Definition struct {
	Name        string             `json:"name"`
	Description string             `json:"description"`
	InputSchema *jsonschema.Schema `json:"inputSchema"`
}

// schemaMap returns the input schema as a generic JSON object, the type
// provider SDKs take (openai.FunctionParameters is a map[string]any; the
// Anthropic SDK takes its "properties").
func (d *Definition) schemaMap() (map[string]any, error) {
	data, err := json.Marshal(d.InputSchema)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	err = json.Unmarshal(data, &m)
	return m, err
}

// Definition returns the tool's definition for the current listing: its
// name, its description (ToolOptions.Description, or
// the default: what the tool does and its four calls) and the JSON Schema of its input, an object with
// the optional string properties name, path and query and no others
// (additionalProperties false). name is an enum of the skill names the
// model may load (every visible skill of the listing, including those the
// catalog block left out for maxSkills or the budget, so a name found by
// query passes a provider's schema check; hidden skills never), unless
// there are more than MaxEnum of them or none. Each call returns a new
// schema the caller may modify. The error is ctx's.
func (t *Tool) Definition(ctx context.Context) (*Definition, error) {
	l := agentx.ListingFrom(ctx) // the MCP server's next snapshot
	var names []string
	if visible, _, ok := agentx.NamesFrom(ctx); l == nil && ok {
		names = t.onlyNames(visible) // skillet tool-schema's names
	} else {
		if l == nil {
			var err error
			if l, err = t.listing(ctx); err != nil {
				return nil, err
			}
		}
		names = t.visibleNames(l)
	}
	s, err := t.schemaFor(names)
	if err != nil {
		return nil, err
	}
	return &Definition{Name: t.name, Description: t.describe(), InputSchema: s}, nil
}

// Call runs the tool on the model's raw JSON arguments and always returns
// a result. Empty arguments and JSON null mean {}. Arguments that are not
// a JSON object, hold a key other than name, path and query, give a
// non-string value, or are over 64 KiB get an error result that
// says what is wrong and how to call the tool, so the model can retry.
// Valid arguments run as invoke.
func (t *Tool) Call(ctx context.Context, args json.RawMessage) Result {
	in, err := parseInput(args)
	if err != nil {
		return errorResult("invalid arguments for %s: %v. %s", t.name, err, t.usage())
	}
	return t.invoke(ctx, in)
}

// usage is the sentence error results end with.
func (t *Tool) usage() string {
	return `Call ` + t.name + ` with {"name": "SKILL"}, {"name": "SKILL", "path": "FILE"}, {"query": "WORDS"} or {}.`
}

// parseInput decodes the tool's raw arguments strictly.
func parseInput(args json.RawMessage) (input, error) {
	var in input
	if len(args) > maxArgumentBytes {
		return in, fmt.Errorf("the arguments are %d bytes, over the %d-byte limit", len(args), maxArgumentBytes)
	}
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return in, nil
	}
	if !json.Valid(trimmed) {
		var v any
		err := json.Unmarshal(trimmed, &v)
		return in, fmt.Errorf("they are not valid JSON (%v)", err)
	}
	if trimmed[0] != '{' {
		return in, fmt.Errorf("they must be a JSON object, not %s", jsonKind(trimmed))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &fields); err != nil {
		return in, fmt.Errorf("they are not a JSON object (%v)", err)
	}
	var unknown []string
	for k := range fields {
		switch k {
		case "name", "path", "query":
		default:
			unknown = append(unknown, fmt.Sprintf("%q", k))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return in, fmt.Errorf("unknown argument %s; the tool takes only name, path and query", strings.Join(unknown, ", "))
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"name", &in.Name}, {"path", &in.Path}, {"query", &in.Query}} {
		raw, ok := fields[f.key]
		if !ok || string(raw) == "null" {
			continue
		}
		if err := json.Unmarshal(raw, f.dst); err != nil {
			return input{}, fmt.Errorf("%q must be a string, not %s", f.key, jsonKind(raw))
		}
	}
	return in, nil
}

// jsonKind names the kind of a valid JSON value.
func jsonKind(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// visible reports whether the model may see s: not hidden, and in the
// caller's list when there is one.
func (t *Tool) visible(s *catalog.Skill) bool {
	return !s.Hidden() && (t.only == nil || t.only[s.Name])
}

func (t *Tool) visibleSkills(l *catalog.Listing) []*catalog.Skill {
	var out []*catalog.Skill
	for _, s := range l.Skills {
		if t.visible(s) {
			out = append(out, s)
		}
	}
	return out
}

// onlyNames returns the names of visible (the names of the skills that
// are not hidden, agentx.NamesFrom) that the model may see: those in the
// caller's list when there is one, as visible reports.
func (t *Tool) onlyNames(visible []string) []string {
	if t.only == nil {
		return visible
	}
	var names []string
	for _, n := range visible {
		if t.only[n] {
			names = append(names, n)
		}
	}
	return names
}

func (t *Tool) visibleNames(l *catalog.Listing) []string {
	var names []string
	for _, s := range t.visibleSkills(l) {
		names = append(names, s.Name)
	}
	return names
}

// invoke runs the tool on decoded arguments; see input for the calls.
// It lists the catalog first (cheap when nothing changed, docs/discovery.md#caching), so every
// result reflects the skills on disk now. It never panics and always
// returns a result:
//
//   - name: the skill's body in the Brute shape, "<skill name=...>" and
//     the Kestrel "# Skill: NAME" heading, a note when the body was cut at
//     maxSkillBytes, the absolute base directory with a sentence saying
//     relative paths resolve against it, and up to sampledFiles bundled
//     files (sorted, "/" separators, never their contents; a last line
//     counts the rest). The load is recorded on the session.
//   - name and path: the file's text in "<skill_file ...>", read through
//     os.Root confined to the skill folder, at most MaxFileBytes; "..",
//     absolute paths, symlinks out of the folder, folders, binary files
//     (NUL bytes or invalid UTF-8) and larger files get error results.
//   - no name: the list of skills, with descriptions for those in the
//     catalog and names for the rest.
//   - unknown name: an error result with the closest names and the
//     available ones.
//   - query: the best matching skills ([catalog.Listing.Search]).
func (t *Tool) invoke(ctx context.Context, in input) Result {
	if err := ctx.Err(); err != nil {
		return errorResult("the call was cancelled: %v", err)
	}
	name := strings.TrimSpace(in.Name)
	query := strings.TrimSpace(in.Query)
	rel := strings.TrimSpace(in.Path)
	l := agentx.ListingFrom(ctx) // skillet show's listing
	if visible, hidden, ok := agentx.NamesFrom(ctx); l == nil && ok && name != "" && query == "" &&
		!slices.Contains(visible, name) && !slices.Contains(hidden, name) {
		// skillet show of a name no skill has: what unknown reads of the
		// listing, which the names hold.
		return t.unknownOf(t.onlyNames(visible), name)
	}
	if l == nil {
		var err error
		if l, err = t.listing(ctx); err != nil {
			return errorResult("the skills could not be listed: %v", err)
		}
	}
	switch {
	case query != "" && (name != "" || rel != ""):
		return errorResult(`give either "query" to search, or "name" (with an optional "path") to load, not both. %s`, t.usage())
	case query != "":
		return t.search(l, query)
	case name == "" && rel != "":
		return errorResult(`"path" needs "name", the skill the file belongs to. %s`, t.usage())
	case name == "":
		return t.list(l)
	}
	var s *catalog.Skill
	for _, c := range l.Skills {
		if c.Name == name {
			s = c
			break
		}
	}
	if s == nil || (t.only != nil && !t.only[s.Name]) {
		return t.unknown(l, name)
	}
	if s.Hidden() && !t.allowHidden {
		return errorResult("the skill %q is for explicit invocation only (disable-model-invocation), so %s cannot load it; "+
			"if the user wants it, ask them to invoke it themselves.", s.Name, t.name)
	}
	if rel == "" {
		return t.load(ctx, l, s)
	}
	return t.readFile(ctx, s, rel)
}

// load returns the body result for s.
func (t *Tool) load(ctx context.Context, l *catalog.Listing, s *catalog.Skill) Result {
	ld, err := t.source.Load(ctx, s)
	if errors.Is(err, catalog.ErrNotFound) {
		return t.unknown(l, s.Name)
	}
	if err != nil {
		return errorResult("the skill %q could not be loaded: %v", s.Name, err)
	}
	s = ld.Skill
	base := t.baseDir(s)
	var b strings.Builder
	fmt.Fprintf(&b, "<skill name=\"%s\">\n", escapeXML(s.Name))
	fmt.Fprintf(&b, "# Skill: %s\n\n", s.Name)
	body, closed := ld.Body, ""
	if ld.Truncated {
		body, closed = agentx.CloseFence(body)
	}
	if body != "" {
		b.WriteString(body)
		b.WriteString("\n\n")
	}
	if ld.Truncated {
		b.WriteString(agentx.TruncationNote(s.Bytes, ld.Bytes, closed, t.wholeFile(s)))
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "Base directory for this skill: %s\n", base)
	b.WriteString("Relative paths in this skill are relative to the base directory.\n")
	b.WriteString(t.fileSample(ctx, s))
	b.WriteString("</skill>\n")
	if err := t.session.Record(ctx, Load{Name: s.Name, Bytes: ld.Bytes, Truncated: ld.Truncated}); err != nil {
		return errorResult("loading the skill %q was refused: %v", s.Name, err)
	}
	return Result{Text: b.String()}
}

// bundled returns the skill's files other than its SKILL.md, and whether
// the listing stopped at 10,000.
func (t *Tool) bundled(ctx context.Context, s *catalog.Skill) ([]string, bool, error) {
	files, more, err := t.source.Files(ctx, s)
	if err != nil {
		return nil, false, err
	}
	own := ""
	if !s.Flat {
		own = path.Base(strings.ReplaceAll(s.Location, `\`, "/"))
	}
	var out []string
	for _, f := range files {
		if s.Flat || f.Path == own {
			continue
		}
		out = append(out, f.Path)
	}
	return out, more, nil
}

// fileSample writes the "Bundled files" lines of a load result.
func (t *Tool) fileSample(ctx context.Context, s *catalog.Skill) string {
	files, more, err := t.bundled(ctx, s)
	if err != nil {
		return fmt.Sprintf("Bundled files: not listed (%v).\n", err)
	}
	if len(files) == 0 {
		return "Bundled files: none.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Bundled files (sampled, up to %d):\n", sampledFiles)
	for _, f := range sample(files, sampledFiles) {
		b.WriteString("  " + f + "\n")
	}
	rest := len(files) - min(len(files), sampledFiles)
	switch {
	case more:
		fmt.Fprintf(&b, "  (more than %d other files not listed)\n", rest)
	case rest > 0:
		word := "files"
		if rest == 1 {
			word = "file"
		}
		fmt.Fprintf(&b, "  (%d more %s not listed)\n", rest, word)
	}
	return b.String()
}

// sample picks n of the sorted paths, spread over their top-level folders
// (round robin, shallower files first within a folder, files at the top
// level counting as one folder), and returns them sorted. So a skill with
// fifty fonts under assets/ still shows its references/ and scripts/.
func sample(paths []string, n int) []string {
	if len(paths) <= n {
		return paths
	}
	var order []string
	groups := map[string][]string{}
	for _, p := range paths {
		top := ""
		if i := strings.IndexByte(p, '/'); i >= 0 {
			top = p[:i]
		}
		if _, ok := groups[top]; !ok {
			order = append(order, top)
		}
		groups[top] = append(groups[top], p)
	}
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b string) int {
			return strings.Count(a, "/") - strings.Count(b, "/")
		})
	}
	var picked []string
	for i := 0; len(picked) < n; i++ {
		for _, top := range order {
			if g := groups[top]; i < len(g) && len(picked) < n {
				picked = append(picked, g[i])
			}
		}
	}
	slices.Sort(picked)
	return picked
}

// readFile returns the text of bundled file rel of s.
func (t *Tool) readFile(ctx context.Context, s *catalog.Skill, rel string) Result {
	base := t.baseDir(s)
	data, err := t.source.ReadFile(ctx, s, rel, t.maxFile)
	if err != nil {
		msg := fmt.Sprintf("cannot read %q from the skill %q: %v.", rel, s.Name, err)
		switch {
		case errors.Is(err, catalog.ErrOutside):
			msg += fmt.Sprintf(" Paths are relative to the skill's base directory %s and stay inside it.", base)
		case errors.Is(err, catalog.ErrFileNotFound), errors.Is(err, catalog.ErrNotFile):
			msg += t.filesHint(ctx, s, rel)
		case errors.Is(err, catalog.ErrTooLarge):
			msg += fmt.Sprintf(" This tool returns files up to %d bytes; the file is in the base directory %s.", t.maxFile, base)
		}
		return Result{Text: msg, IsError: true}
	}
	clean, _ := fsx.CleanRel(rel, catalog.ErrOutside, catalog.ErrFileNotFound) // ReadFile accepted it, so it is clean
	switch {
	case bytes.IndexByte(data, 0) >= 0:
		return errorResult("refused to read %q from the skill %q: it is a binary file (it holds NUL bytes), and %s returns text only. It is in the base directory %s.",
			clean, s.Name, t.name, base)
	case !utf8.Valid(data):
		return errorResult("refused to read %q from the skill %q: it is a binary file (not valid UTF-8 text), and %s returns text only. It is in the base directory %s.",
			clean, s.Name, t.name, base)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<skill_file name=\"%s\" path=\"%s\" base=\"%s\">\n", escapeXML(s.Name), escapeXML(clean), escapeXML(base))
	b.Write(data)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("</skill_file>\n")
	if err := t.session.Record(ctx, Load{Name: s.Name, Path: clean, Bytes: len(data)}); err != nil {
		return errorResult("reading %q from the skill %q was refused: %v", clean, s.Name, err)
	}
	return Result{Text: b.String()}
}

// filesHint names the files the model could have meant: those under rel
// when it is a folder, else the skill's files.
func (t *Tool) filesHint(ctx context.Context, s *catalog.Skill, rel string) string {
	files, _, err := t.bundled(ctx, s)
	if err != nil {
		return ""
	}
	if len(files) == 0 {
		return " The skill has no bundled files."
	}
	if dir, err := fsx.CleanRel(rel, catalog.ErrOutside, catalog.ErrFileNotFound); err == nil && dir != "." {
		var under []string
		for _, f := range files {
			if strings.HasPrefix(f, dir+"/") {
				under = append(under, f)
			}
		}
		if len(under) > 0 {
			return " Files in that folder: " + listNames(under, 20) + "."
		}
	}
	return " Its files: " + listNames(files, 20) + "."
}

// listNames joins up to n names with commas and counts the rest.
func listNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// list returns the list of available skills (no name given).
func (t *Tool) list(l *catalog.Listing) Result {
	skills := t.visibleSkills(l)
	if len(skills) == 0 {
		return Result{Text: "No skills are available.\n"}
	}
	maxDesc := t.c.Settings().MaxDescriptionChars
	var b strings.Builder
	fmt.Fprintf(&b, "Available skills (load one with %s {\"name\": \"...\"}):\n", t.name)
	var rest []string
	for _, s := range skills {
		if !s.Listed && t.only == nil {
			rest = append(rest, s.Name)
			continue
		}
		desc, _ := shorten(s.Description, maxDesc)
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, desc)
	}
	if len(rest) > 0 {
		fmt.Fprintf(&b, "%s not in the catalog (search them with {\"query\": \"...\"}): %s\n",
			outfmt.Count(len(rest), "more skill"), strings.Join(rest, ", "))
	}
	return Result{Text: b.String()}
}

// unknown returns the error result for a name that is not a visible skill.
func (t *Tool) unknown(l *catalog.Listing, name string) Result {
	return t.unknownOf(t.visibleNames(l), name)
}

// unknownOf is unknown of names, the visible skills' names in order.
func (t *Tool) unknownOf(names []string, name string) Result {
	if len(names) == 0 {
		return errorResult("unknown skill %q: no skills are available.", echo(name))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "unknown skill %q.", echo(name))
	if near := closest(name, names, 3); len(near) > 0 {
		fmt.Fprintf(&b, " Did you mean %s?", strings.Join(near, ", "))
	}
	fmt.Fprintf(&b, " Available skills: %s.", listNames(names, maxNamesInError))
	fmt.Fprintf(&b, ` Call %s with {"query": "..."} to search them by what they do.`, t.name)
	return Result{Text: b.String(), IsError: true}
}

// closest returns up to n names near name, nearest first, or nil when
// none is near or name is longer than maxEchoBytes. A name is compared as
// given with the query: name lower-cased, each run of spaces and "_" in it
// made one "-" (a run at either end dropped). Lengths and edit distances
// (Levenshtein: one code point inserted, deleted or replaced an edit) are
// in code points, an invalid byte one U+FFFD; q is the query's length and
// c the name's. A name is near, in this order of rank:
//
//  1. when its edit distance d to the query is at most max(2, c/3) and
//     less than max(q, c) (rewriting every character of "d6" into "a"
//     makes no suggestion); ranked by d;
//  2. else, for a query of 3 or more, when the least distance d from the
//     query to a start of the name of q-1, q or q+1 code points or to one
//     of its "-"-separated words is at most q/3; ranked by d;
//  3. else when the name holds the query (q at least 4), or the query
//     holds the name (c at least 4), byte for byte.
//
// Names of one rank and distance are in byte order (strings.Compare); a
// name listed twice is given twice.
func closest(name string, names []string, n int) []string {
	if len(name) > maxEchoBytes {
		return nil // no skill's name is near it, and comparing would cost len(name) × names
	}
	q := strings.ToLower(strings.Join(strings.FieldsFunc(name, func(r rune) bool {
		return r == ' ' || r == '_'
	}), "-"))
	qr := []rune(q)
	qn := len(qr)
	partLimit := max(1, qn/3)
	type cand struct {
		name  string
		score int
	}
	var cands []cand
	// One buffer for every name's code points, the query's bit masks
	// (or the distances' rows): nothing is allocated a name but the
	// candidates.
	var lv editDist
	lv.setQuery(qr)
	var runes []rune
	for _, nm := range names {
		runes = runes[:0]
		for _, r := range nm {
			runes = append(runes, r)
		}
		nn := len(runes)
		limit := min(max(2, nn/3), max(qn, nn)-1)
		score := -1
		if d := lv.toQuery(runes, limit); d <= limit {
			score = d
		} else if qn >= 3 {
			// The start of the name, a little shorter or longer than q.
			best := qn
			for l := qn - 1; l <= qn+1; l++ {
				if l > 0 && l <= len(runes) {
					best = min(best, lv.toQuery(runes[:l], partLimit))
				}
			}
			// Each of its "-"-separated words.
			for from, i := 0, 0; i <= len(runes); i++ {
				if i == len(runes) || runes[i] == '-' {
					best = min(best, lv.toQuery(runes[from:i], partLimit))
					from = i + 1
				}
			}
			switch {
			case best <= partLimit:
				score = 100 + best
			case qn >= 4 && strings.Contains(nm, q), nn >= 4 && strings.Contains(q, nm):
				score = 200
			}
		}
		if score >= 0 {
			cands = append(cands, cand{nm, score})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.score != b.score {
			return a.score - b.score
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, c.name)
	}
	return out
}

// search returns the skills matching query.
func (t *Tool) search(l *catalog.Listing, query string) Result {
	res, err := l.Search(query, 0)
	if errors.Is(err, catalog.ErrEmptyQuery) {
		return errorResult("the query %q holds no words to search for; give a few words that describe the task.", echo(query))
	}
	if err != nil {
		return errorResult("the search failed: %v", err)
	}
	var found []catalog.SearchResult
	for _, r := range res {
		if t.visible(r.Skill) {
			found = append(found, r)
		}
		if len(found) == t.searchLimit {
			break
		}
	}
	if len(found) == 0 {
		return Result{Text: fmt.Sprintf("No skill matches %q. Call %s with {} to list every skill.\n", echo(query), t.name)}
	}
	maxDesc := t.c.Settings().MaxDescriptionChars
	var b strings.Builder
	fmt.Fprintf(&b, "Skills matching %q, best first (load one with %s {\"name\": \"...\"}):\n", echo(query), t.name)
	for _, r := range found {
		desc, _ := shorten(r.Skill.Description, maxDesc)
		fmt.Fprintf(&b, "- %s: %s\n", r.Skill.Name, desc)
		if r.Skill.WhenToUse != "" {
			when, _ := shorten(r.Skill.WhenToUse, maxDesc)
			fmt.Fprintf(&b, "  When to use: %s\n", when)
		}
	}
	return Result{Text: b.String()}
}
