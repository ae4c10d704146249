package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/agentx"
)

// resultText renders a result for a golden file.
func resultText(r agent.Result) string {
	if r.IsError {
		return "isError: true\n" + r.Text + "\n"
	}
	return "isError: false\n" + r.Text
}

func TestToolGoldenExamples(t *testing.T) {
	t.Parallel()
	c := examplesCatalog(t)
	tool := agent.NewTool(c, nil)
	tests := []struct {
		golden string
		args   string
	}{
		{"load-release-checklist", `{"name": "release-checklist"}`},
		{"load-flat-commit-message", `{"name": "commit-message"}`},
		{"file-versioning", `{"name": "release-checklist", "path": "references/versioning.md"}`},
		{"file-script-backslash", `{"name": "release-checklist", "path": "scripts\\preflight.sh"}`},
		{"list", `{}`},
		{"list-null", `null`},
		{"search-ship", `{"query": "ship a new version"}`},
		{"search-none", `{"query": "kubernetes helm"}`},
		{"unknown-relase", `{"name": "relase-checklist"}`},
		{"hidden-refused", `{"name": "rotate-secrets"}`},
		{"path-dotdot", `{"name": "release-checklist", "path": "../commit-message.md"}`},
		{"path-absolute", `{"name": "release-checklist", "path": "/etc/passwd"}`},
		{"path-missing", `{"name": "release-checklist", "path": "references/nope.md"}`},
		{"path-folder", `{"name": "release-checklist", "path": "references"}`},
		{"path-without-name", `{"path": "references/versioning.md"}`},
		{"name-and-query", `{"name": "release-checklist", "query": "ship"}`},
		{"query-no-words", `{"query": "?!"}`},
		{"args-invalid-json", `{"name": "release-checklist"`},
		{"args-not-object", `["release-checklist"]`},
		{"args-extra-field", `{"name": "release-checklist", "verbose": true, "args": "x"}`},
		{"args-wrong-type", `{"name": 42}`},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			r := tool.Call(context.Background(), json.RawMessage(tt.args))
			golden(t, "tool-"+tt.golden+".txt", portable(t, resultText(r)))
		})
	}
}

// redactResult keeps a corpus skill's load result's structure and
// replaces its body with a digest.
func redactResult(text string) string {
	head, rest, ok := strings.Cut(text, "\n\n")
	if !ok {
		return text
	}
	i := strings.Index(rest, "\n\nBase directory for this skill: ")
	if i < 0 {
		return text
	}
	return head + "\n\n" + digest(rest[:i]) + rest[i:]
}

func TestToolGoldenCorpus(t *testing.T) {
	t.Parallel()
	c, dir := corpusCatalog(t, "anthropics-skills", nil)
	tool := agent.NewTool(c, nil)
	for _, name := range []string{"claude-api", "canvas-design", "skill-creator", "frontend-design"} {
		t.Run(name, func(t *testing.T) {
			r := tool.Call(context.Background(), json.RawMessage(`{"name": "`+name+`"}`))
			if r.IsError {
				t.Fatalf("load %s: %s", name, r.Text)
			}
			got := strings.ReplaceAll(r.Text, dir, "$CORPUS")
			golden(t, "tool-corpus-"+name+".txt", "whole result: "+digest(got)+"\n\n"+redactResult(got))
		})
	}
	// The list names every skill of the sample.
	r := tool.Call(context.Background(), nil)
	for _, s := range listing(t, c).Skills {
		if !strings.Contains(r.Text, "- "+s.Name+": ") {
			t.Errorf("the list lacks %s", s.Name)
		}
	}
}

func TestToolLoadResult(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"skills/big/SKILL.md":            skillMD("name: big\ndescription: A skill with many files.", "Read [the guide](references/guide.md)."),
		"skills/big/references/guide.md": "# Guide\n",
		"skills/big/scripts/run.sh":      "echo run\n",
		"skills/big/LICENSE.txt":         "MIT\n",
	}
	for i := range 25 {
		files[fmt.Sprintf("skills/big/assets/fonts/f%02d.ttf", i)] = "font"
	}
	files["skills/big/node_modules/x/index.js"] = "skipped"
	files["skills/big/.git/HEAD"] = "skipped"
	c, ws := tempCatalog(t, files, nil)
	r := agent.NewTool(c, nil).Call(context.Background(), json.RawMessage(`{"name":"big"}`))
	if r.IsError {
		t.Fatal(r.Text)
	}
	base := filepath.Join(ws, "skills", "big")
	want := `<skill name="big">
# Skill: big

Read [the guide](references/guide.md).

Base directory for this skill: ` + base + `
Relative paths in this skill are relative to the base directory.
Bundled files (sampled, up to 10):
  LICENSE.txt
  assets/fonts/f00.ttf
  assets/fonts/f01.ttf
  assets/fonts/f02.ttf
  assets/fonts/f03.ttf
  assets/fonts/f04.ttf
  assets/fonts/f05.ttf
  assets/fonts/f06.ttf
  references/guide.md
  scripts/run.sh
  (18 more files not listed)
</skill>
`
	if diff := cmp.Diff(want, r.Text); diff != "" {
		t.Errorf("load result (-want +got):\n%s", diff)
	}
}

func TestToolTruncatedBody(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("Step line that is long enough.\n", 40)
	c, _ := tempCatalog(t, map[string]string{
		"skills/long/SKILL.md": skillMD("name: long\ndescription: A long skill.", body),
	}, &catalog.Options{MaxSkillBytes: 300})
	r := agent.NewTool(c, nil).Call(context.Background(), json.RawMessage(`{"name":"long"}`))
	if r.IsError {
		t.Fatal(r.Text)
	}
	size := len(skillMD("name: long\ndescription: A long skill.", body))
	loc := filepath.Join(c.Workspace(), "skills", "long", "SKILL.md")
	want := fmt.Sprintf("[This skill's file is %d bytes and only its first 300 bytes (maxSkillBytes) were read: %d bytes are left out and the instructions above are cut short. The whole file is %s.]", size, size-300, loc)
	if !strings.Contains(r.Text, want) {
		t.Errorf("no truncation note %q in:\n%s", want, r.Text)
	}
	if strings.Count(r.Text, "Step line") >= 40 {
		t.Error("the whole body came back")
	}
	l := agent.NewTool(c, nil)
	l.Call(context.Background(), json.RawMessage(`{"name":"long"}`))
	if got := l.Session().Loaded(); len(got) != 1 || !got[0].Truncated || got[0].Bytes != 300 {
		t.Errorf("recorded %+v, want one truncated load of 300 bytes", got)
	}
}

// TestToolTruncatedBodyClosesFence checks that a body cut inside a code
// block ends with that block closed (by a fence of the same character and
// length, at its indentation), so the note after it is not read as code,
// and that a body cut outside one gets no fence.
func TestToolTruncatedBodyClosesFence(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, body, wantEnd, wantNote string
	}{
		{"backticks", "Run this:\n\n```bash\n" + strings.Repeat("echo step\n", 60), "\n```\n\n[", "; the code block open at the cut was closed with ```. The whole file is "},
		{"four tildes in a list", "1. Run this:\n   ~~~~sh\n   ```\n" + strings.Repeat("   echo step\n", 60), "\n   ~~~~\n\n[", "; the code block open at the cut was closed with ~~~~. The whole file is "},
		{"closed before the cut", "```\nx\n```\n" + strings.Repeat("Prose line.\n", 60), "Pro\n\n[", "cut short. The whole file is "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := tempCatalog(t, map[string]string{
				"skills/long/SKILL.md": skillMD("name: long\ndescription: A long skill.", tt.body),
			}, &catalog.Options{MaxSkillBytes: 300})
			r := agent.NewTool(c, nil).Call(context.Background(), json.RawMessage(`{"name":"long"}`))
			if r.IsError {
				t.Fatal(r.Text)
			}
			note := strings.Index(r.Text, "[This skill's file is")
			if note < 0 || !strings.HasSuffix(r.Text[:note+1], tt.wantEnd) {
				t.Errorf("the body does not end with %q before the note:\n%s", tt.wantEnd, r.Text)
			}
			if !strings.Contains(r.Text, tt.wantNote) {
				t.Errorf("no %q in the note:\n%s", tt.wantNote, r.Text)
			}
		})
	}
}

// confinementTree is a skill folder beside a secret, with every way out
// of the folder a model might try.
func confinementTree(t testing.TB, secret string) (*catalog.Catalog, string) {
	t.Helper()
	c, ws := tempCatalog(t, map[string]string{
		"secret.txt":                     secret + "\n",
		"skills/box/SKILL.md":            skillMD("name: box\ndescription: A boxed skill.", "See references/notes.md."),
		"skills/box/references/notes.md": "notes\n",
		"skills/box/binary.bin":          "text\x00with a NUL",
		"skills/box/latin1.txt":          "caf\xe9\n",
		"skills/box/big.txt":             strings.Repeat("x", 3000),
		// Withheld (docs/discovery.md#withheld-files): read as absent.
		"skills/box/.env":                      secret + "\n",
		"skills/box/node_modules/pkg/index.js": secret + "\n",
		"skills/box/lib/__pycache__/m.pyc":     secret + "\n",
		"skills/other/SKILL.md":                skillMD("name: other\ndescription: Another skill.", secret),
	}, nil)
	box := filepath.Join(ws, "skills", "box")
	links := map[string]string{
		"link-out.txt":   filepath.Join(ws, "secret.txt"),
		"link-rel.txt":   "../../secret.txt",
		"link-dir":       ws,
		"link-other.md":  filepath.Join(ws, "skills", "other", "SKILL.md"),
		"link-inside.md": "references/notes.md",
		"link-loop":      "link-loop",
	}
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(box, name)); err != nil {
			t.Fatal(err)
		}
	}
	return c, ws
}

func TestToolFileConfinement(t *testing.T) {
	t.Parallel()
	const secret = "SECRET-8f2a-do-not-leak"
	c, ws := confinementTree(t, secret)
	tool := agent.NewTool(c, &agent.ToolOptions{MaxFileBytes: 1000})
	tests := []struct {
		path    string
		wantErr string // substring of the error text; "" for success
	}{
		{"references/notes.md", ""},
		{"link-inside.md", ""},
		{"./references/../references/notes.md", "outside the skill folder"},
		{"../../secret.txt", "outside the skill folder"},
		{"../other/SKILL.md", "outside the skill folder"},
		{filepath.Join(ws, "secret.txt"), "outside the skill folder"},
		{"/etc/passwd", "outside the skill folder"},
		{`..\..\secret.txt`, "outside the skill folder"},
		{"C:/secret.txt", "outside the skill folder"},
		{"link-out.txt", "outside the skill folder"},
		{"link-rel.txt", "outside the skill folder"},
		{"link-other.md", "outside the skill folder"},
		{"link-dir/secret.txt", "outside the skill folder"},
		{"link-loop", "symlink loop"},
		{"references", "is a folder"},
		{".", "skill folder itself"},
		{"", ""}, // empty path: the body
		{"binary.bin", "binary file (it holds NUL bytes)"},
		{"latin1.txt", "binary file (not valid UTF-8 text)"},
		{"big.txt", "over the 1000-byte limit"},
		{"missing.md", "file not found"},
		{".env", "file not found"},
		{"node_modules/pkg/index.js", "file not found"},
		{"lib/__pycache__/m.pyc", "file not found"},
		{"references/notes.md\x00.txt", "outside the skill folder"},
	}
	for _, tt := range tests {
		args, _ := json.Marshal(map[string]string{"name": "box", "path": tt.path})
		r := tool.Call(context.Background(), args)
		if strings.Contains(r.Text, secret) {
			t.Errorf("path %q: the secret leaked:\n%s", tt.path, r.Text)
		}
		if tt.wantErr == "" {
			if r.IsError {
				t.Errorf("path %q: unexpected error: %s", tt.path, r.Text)
			}
			continue
		}
		if !r.IsError || !strings.Contains(r.Text, tt.wantErr) {
			t.Errorf("path %q: got isError=%v %q, want an error containing %q", tt.path, r.IsError, r.Text, tt.wantErr)
		}
	}
	// Only the successful reads were recorded.
	var paths []string
	for _, l := range tool.Session().Loaded() {
		paths = append(paths, l.Path)
	}
	if diff := cmp.Diff([]string{"references/notes.md", "link-inside.md", ""}, paths); diff != "" {
		t.Errorf("recorded paths (-want +got):\n%s", diff)
	}
}

func TestToolHidden(t *testing.T) {
	t.Parallel()
	c := examplesCatalog(t)
	ctx := context.Background()
	model := agent.NewTool(c, nil)
	r := model.Call(ctx, json.RawMessage(`{"name":"rotate-secrets"}`))
	if !r.IsError || !strings.Contains(r.Text, "explicit invocation only") {
		t.Errorf("model load of a hidden skill: %+v", r)
	}
	r = model.Call(ctx, json.RawMessage(`{"name":"rotate-secrets","path":"SKILL.md"}`))
	if !r.IsError {
		t.Errorf("model read of a hidden skill's file: %+v", r)
	}
	for _, args := range []string{`{}`, `{"query":"rotate deployment credentials"}`, `{"name":"rotate-secret"}`} {
		if r := model.Call(ctx, json.RawMessage(args)); strings.Contains(r.Text, "rotate-secrets") {
			t.Errorf("%s reveals the hidden skill:\n%s", args, r.Text)
		}
	}
	s := inputSchema(t, ctx, model)
	if slices.Contains(s.Properties["name"].Enum, any("rotate-secrets")) {
		t.Error("the hidden skill is in the enum")
	}
	person := agent.NewTool(c, &agent.ToolOptions{AllowHidden: true})
	r = person.Call(ctx, json.RawMessage(`{"name":"rotate-secrets"}`))
	if r.IsError || !strings.Contains(r.Text, "# Skill: rotate-secrets") {
		t.Errorf("explicit load of a hidden skill: %+v", r)
	}
	if got := person.Session().Skills(); !slices.Equal(got, []string{"rotate-secrets"}) {
		t.Errorf("recorded %v", got)
	}
}

func TestToolOwnSkills(t *testing.T) {
	t.Parallel()
	c := examplesCatalog(t)
	ctx := context.Background()
	l := listing(t, c)
	var release *catalog.Skill
	for _, s := range l.Skills {
		if s.Name == "release-checklist" {
			release = s
		}
	}
	only := agent.NewTool(c, &agent.ToolOptions{Skills: []*catalog.Skill{release}})
	if r := only.Call(ctx, json.RawMessage(`{"name":"commit-message"}`)); !r.IsError || !strings.Contains(r.Text, "unknown skill") {
		t.Errorf("a skill outside the caller's list loaded: %+v", r)
	}
	if r := only.Call(ctx, json.RawMessage(`{"name":"release-checklist"}`)); r.IsError {
		t.Errorf("the caller's skill did not load: %s", r.Text)
	}
	s := inputSchema(t, ctx, only)
	if diff := cmp.Diff([]any{"release-checklist"}, s.Properties["name"].Enum); diff != "" {
		t.Errorf("enum (-want +got):\n%s", diff)
	}
	none := agent.NewTool(c, &agent.ToolOptions{Skills: []*catalog.Skill{}})
	if r := none.Call(ctx, nil); r.IsError || r.Text != "No skills are available.\n" {
		t.Errorf("list with no skills: %+v", r)
	}
	if r := none.Call(ctx, json.RawMessage(`{"name":"release-checklist"}`)); !r.IsError || !strings.Contains(r.Text, "no skills are available") {
		t.Errorf("load with no skills: %+v", r)
	}
	s = inputSchema(t, ctx, none)
	if s.Properties["name"].Enum != nil || !strings.Contains(s.Properties["name"].Description, "No skills are available") {
		t.Errorf("schema with no skills: %+v", s.Properties["name"])
	}
}

func TestToolSchema(t *testing.T) {
	t.Parallel()
	c, ws := tempCatalog(t, map[string]string{
		"skills/alpha/SKILL.md": skillMD("name: alpha\ndescription: First.", "Body."),
		"skills/beta/SKILL.md":  skillMD("name: beta\ndescription: Second.", "Body."),
	}, &catalog.Options{MaxSkills: 1})
	ctx := context.Background()
	tool := agent.NewTool(c, nil)
	def, err := tool.Definition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(def, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "tool-definition.json", string(data)+"\n")

	// The enum holds skills beyond maxSkills too, so names found by query pass.
	if diff := cmp.Diff([]any{"alpha", "beta"}, def.InputSchema.Properties["name"].Enum); diff != "" {
		t.Errorf("enum (-want +got):\n%s", diff)
	}
	// The schema validates what the tool accepts and rejects the rest.
	resolved, err := def.InputSchema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for args, ok := range map[string]bool{
		`{}`:                                true,
		`{"name":"alpha"}`:                  true,
		`{"name":"beta","path":"x.md"}`:     true,
		`{"query":"anything"}`:              true,
		`{"name":"gamma"}`:                  false,
		`{"name":"alpha","extra":1}`:        false,
		`{"name":1}`:                        false,
		`{"name":"alpha","path":["a","b"]}`: false,
	} {
		var v map[string]any
		if err := json.Unmarshal([]byte(args), &v); err != nil {
			t.Fatal(err)
		}
		if err := resolved.Validate(v); (err == nil) != ok {
			t.Errorf("Validate(%s) = %v, want ok=%v", args, err, ok)
		}
	}
	// A skill added on disk shows up in the next schema, without a restart.
	writeTree(t, ws, map[string]string{"skills/gamma/SKILL.md": skillMD("name: gamma\ndescription: Third.", "Body.")})
	s := inputSchema(t, ctx, tool)
	if diff := cmp.Diff([]any{"alpha", "beta", "gamma"}, s.Properties["name"].Enum); diff != "" {
		t.Errorf("enum after adding gamma (-want +got):\n%s", diff)
	}
	// Each call returns a schema of its own.
	s.Properties["name"].Enum = nil
	if s2 := inputSchema(t, ctx, tool); len(s2.Properties["name"].Enum) != 3 {
		t.Error("modifying a returned schema changed the next one")
	}
	// Over MaxEnum the name is a plain string.
	small := agent.NewTool(c, &agent.ToolOptions{MaxEnum: 2})
	if s := inputSchema(t, ctx, small); s.Properties["name"].Enum != nil {
		t.Errorf("enum with MaxEnum 2 and 3 skills: %v", s.Properties["name"].Enum)
	}
	raw, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Name        string             `json:"name"`
		InputSchema *jsonschema.Schema `json:"inputSchema"`
	}
	if err := json.Unmarshal(raw, &back); err != nil || back.Name != "use_skill" || back.InputSchema == nil || back.InputSchema.Type != "object" {
		t.Errorf("the definition does not round-trip as JSON: %v, %s", err, raw)
	}
	m, err := def.SchemaMap()
	if err != nil || m["type"] != "object" || m["additionalProperties"] != false {
		t.Errorf("SchemaMap = %v, %v", m, err)
	}
	// The tool's name comes from the configuration's toolName.
	if tool.Name() != "use_skill" || agent.NewTool(c, &agent.ToolOptions{Name: "load_skill"}).Name() != "load_skill" {
		t.Error("tool names")
	}
	if !strings.HasPrefix(def.Description, "Loads an Agent Skill: instructions for one kind of task") || !strings.Contains(def.Description, `{"query": WORDS}`) {
		t.Error("default description")
	}
	d, err := agent.NewTool(c, &agent.ToolOptions{Description: "Load a skill."}).Definition(ctx)
	if err != nil || d.Description != "Load a skill." {
		t.Errorf("description override: %v, %v", d, err)
	}
}

func TestToolNameFromConfig(t *testing.T) {
	t.Parallel()
	ws := writeTree(t, t.TempDir(), map[string]string{
		"skillet.yaml":          "toolName: load_skill\nmaxDescriptionChars: 20\ncatalogBudgetChars: 5000\n",
		"skills/alpha/SKILL.md": skillMD("name: alpha\ndescription: A description longer than twenty characters.", "Body."),
	})
	c, err := catalog.New(context.Background(), &catalog.Options{Workspace: ws, NoUser: true})
	if err != nil {
		t.Fatal(err)
	}
	sk := newSkills(t, c, nil)
	if sk.Tool().Name() != "load_skill" {
		t.Errorf("tool name %q, want load_skill", sk.Tool().Name())
	}
	b, err := sk.Block(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Text, "call the load_skill tool") || b.BudgetChars != 5000 {
		t.Errorf("block does not follow the configuration (budget %d):\n%s", b.BudgetChars, b.Text)
	}
	if want := "<description>A description…</description>"; !strings.Contains(b.Text, want) {
		t.Errorf("block lacks %q:\n%s", want, b.Text)
	}
	r := sk.Tool().Call(context.Background(), json.RawMessage(`{"name":"nope"}`))
	if !strings.Contains(r.Text, "Call load_skill with") {
		t.Errorf("error result does not name the tool: %s", r.Text)
	}
}

func TestToolSeesChanges(t *testing.T) {
	t.Parallel()
	c, ws := tempCatalog(t, map[string]string{
		"skills/alpha/SKILL.md": skillMD("name: alpha\ndescription: First.", "Version one."),
	}, nil)
	tool := agent.NewTool(c, nil)
	ctx := context.Background()
	if r := tool.Call(ctx, json.RawMessage(`{"name":"alpha"}`)); !strings.Contains(r.Text, "Version one.") {
		t.Fatalf("first load: %s", r.Text)
	}
	writeTree(t, ws, map[string]string{"skills/alpha/SKILL.md": skillMD("name: alpha\ndescription: First.", "Version two, longer.")})
	if r := tool.Call(ctx, json.RawMessage(`{"name":"alpha"}`)); !strings.Contains(r.Text, "Version two, longer.") {
		t.Errorf("after the edit: %s", r.Text)
	}
	if err := os.RemoveAll(filepath.Join(ws, "skills", "alpha")); err != nil {
		t.Fatal(err)
	}
	if r := tool.Call(ctx, json.RawMessage(`{"name":"alpha"}`)); !r.IsError {
		t.Errorf("after removal: %s", r.Text)
	}
}

func TestToolSearchFindsUnlisted(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 6 {
		name := fmt.Sprintf("skill-%d", i)
		files["skills/"+name+"/SKILL.md"] = skillMD("name: "+name+"\ndescription: Generic helper number "+name+".", "Body.")
	}
	files["skills/zz-terraform/SKILL.md"] = skillMD("name: zz-terraform\ndescription: Plan and apply Terraform changes safely.", "Body.")
	c, _ := tempCatalog(t, files, &catalog.Options{MaxSkills: 3})
	sk := newSkills(t, c, nil)
	b, err := sk.Block(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.Text, "zz-terraform") || b.LeftOut() != 4 {
		t.Fatalf("the block shows zz-terraform or does not count it (left out %d):\n%s", b.LeftOut(), b.Text)
	}
	r := sk.Tool().Call(context.Background(), json.RawMessage(`{"query":"terraform plan"}`))
	if r.IsError || !strings.Contains(r.Text, "- zz-terraform: Plan and apply Terraform changes safely.") {
		t.Errorf("query: %+v", r)
	}
	r = sk.Tool().Call(context.Background(), json.RawMessage(`{"name":"zz-terraform"}`))
	if r.IsError {
		t.Errorf("load of an unlisted skill: %s", r.Text)
	}
	r = sk.Tool().Call(context.Background(), nil)
	if !strings.Contains(r.Text, "4 more skills not in the catalog") || !strings.Contains(r.Text, "zz-terraform") {
		t.Errorf("list: %s", r.Text)
	}
}

func TestToolArguments(t *testing.T) {
	t.Parallel()
	tool := agent.NewTool(examplesCatalog(t), nil)
	tests := []struct {
		args    string
		isError bool
		want    string
	}{
		{``, false, "Available skills"},
		{`   `, false, "Available skills"},
		{`null`, false, "Available skills"},
		{`{}`, false, "Available skills"},
		{`{"name": null}`, false, "Available skills"},
		{`{"name": "  release-checklist  "}`, false, "# Skill: release-checklist"},
		{`{"name": "release-checklist", "name": "commit-message"}`, false, "# Skill: commit-message"},
		{`{`, true, "not valid JSON"},
		{`{"name": "x"} trailing`, true, "not valid JSON"},
		{`"release-checklist"`, true, "must be a JSON object, not a string"},
		{`42`, true, "must be a JSON object, not a number"},
		{`true`, true, "must be a JSON object, not a boolean"},
		{`{"Name": "release-checklist"}`, true, `unknown argument "Name"`},
		{`{"name": ["a"]}`, true, `"name" must be a string, not an array`},
		{`{"path": {}}`, true, `"path" must be a string, not an object`},
		{`{"query": false}`, true, `"query" must be a string, not a boolean`},
		{`{"name": "\u0000"}`, true, "unknown skill"},
		{`{"name": "` + strings.Repeat("a", 64<<10) + `"}`, true, "over the 65536-byte limit"},
	}
	for _, tt := range tests {
		r := tool.Call(context.Background(), json.RawMessage(tt.args))
		if r.IsError != tt.isError || !strings.Contains(r.Text, tt.want) {
			t.Errorf("Call(%.60s) = isError %v, %.200q; want isError %v and %q", tt.args, r.IsError, r.Text, tt.isError, tt.want)
		}
		if r.IsError && strings.HasPrefix(tt.want, "not valid") && !strings.Contains(r.Text, `Call use_skill with {"name": "SKILL"}`) {
			t.Errorf("Call(%s): the error does not say how to call the tool: %s", tt.args, r.Text)
		}
	}
}

func TestToolCancelled(t *testing.T) {
	t.Parallel()
	tool := agent.NewTool(examplesCatalog(t), nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := tool.Call(ctx, json.RawMessage(`{"name":"release-checklist"}`)); !r.IsError || !strings.Contains(r.Text, "cancelled") {
		t.Errorf("cancelled call: %+v", r)
	}
	if _, err := tool.Definition(ctx); err == nil {
		t.Error("Definition with a cancelled context: no error")
	}
}

func TestToolConcurrent(t *testing.T) {
	t.Parallel()
	tool := agent.NewTool(examplesCatalog(t), nil)
	var wg sync.WaitGroup
	calls := []string{`{"name":"release-checklist"}`, `{"name":"commit-message"}`, `{"query":"version"}`, `{}`,
		`{"name":"release-checklist","path":"scripts/preflight.sh"}`}
	for i := range 40 {
		wg.Go(func() {
			r := tool.Call(context.Background(), json.RawMessage(calls[i%len(calls)]))
			if r.IsError {
				t.Errorf("%s: %s", calls[i%len(calls)], r.Text)
			}
		})
	}
	wg.Wait()
	if n := len(tool.Session().Loaded()); n != 24 {
		t.Errorf("%d loads recorded, want 24", n)
	}
}

func TestSession(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var seen []agent.Load
	var mu sync.Mutex
	sess := agent.NewSession(&agent.SessionOptions{
		OnLoad: func(_ context.Context, l agent.Load) error {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, l)
			if l.Path == "scripts/preflight.sh" {
				return fmt.Errorf("scripts are not shown in this session")
			}
			return nil
		},
	})
	agent.SetNow(sess, func() time.Time { return now })
	tool := agent.NewTool(examplesCatalog(t), &agent.ToolOptions{Session: sess})
	ctx := context.Background()
	for _, args := range []string{
		`{"name":"release-checklist"}`,
		`{"name":"release-checklist","path":"references/versioning.md"}`,
		`{"name":"release-checklist","path":"scripts/preflight.sh"}`,
		`{"name":"nope"}`,
		`{"name":"commit-message"}`,
		`{"name":"release-checklist"}`,
	} {
		r := tool.Call(ctx, json.RawMessage(args))
		if strings.Contains(args, "preflight") && (!r.IsError || !strings.Contains(r.Text, "was refused: scripts are not shown in this session")) {
			t.Errorf("refused read: %+v", r)
		}
	}
	want := []agent.Load{
		{Name: "release-checklist", Time: now, Bytes: 1189},
		{Name: "release-checklist", Path: "references/versioning.md", Time: now, Bytes: 376},
		{Name: "commit-message", Time: now, Bytes: 605},
		{Name: "release-checklist", Time: now, Bytes: 1189},
	}
	if diff := cmp.Diff(want, sess.Loaded()); diff != "" {
		t.Errorf("Loaded (-want +got):\n%s", diff)
	}
	if len(seen) != 5 {
		t.Errorf("OnLoad saw %d loads, want 5 (the refused one included)", len(seen))
	}
	if diff := cmp.Diff([]string{"release-checklist", "commit-message"}, sess.Skills()); diff != "" {
		t.Errorf("Skills (-want +got):\n%s", diff)
	}
	// Loaded returns a copy.
	got := sess.Loaded()
	got[0].Name = "changed"
	if sess.Loaded()[0].Name != "release-checklist" {
		t.Error("Loaded shares its slice")
	}
	sess.Reset()
	if len(sess.Loaded()) != 0 || len(sess.Skills()) != 0 {
		t.Error("Reset kept loads")
	}
	// A zero Time is set from the clock; a given one is kept.
	given := now.Add(time.Hour)
	if err := sess.Record(ctx, agent.Load{Name: "x", Time: given}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Record(ctx, agent.Load{Name: "y"}); err != nil {
		t.Fatal(err)
	}
	if l := sess.Loaded(); !l[0].Time.Equal(given) || !l[1].Time.Equal(now) {
		t.Errorf("times: %v", l)
	}
}

// TestToolHugeArguments: a 60 KB name or query is answered briefly, and
// the name is not compared with every skill's (which would cost
// len(name) × names).
func TestToolHugeArguments(t *testing.T) {
	t.Parallel()
	tool := agent.NewTool(examplesCatalog(t), nil)
	huge := strings.Repeat("deploy release ", 60<<10/15) // under the 64 KB argument limit
	for _, args := range []map[string]string{{"name": huge}, {"query": huge}, {"query": strings.Repeat("zz ", 60<<10/3)}} {
		raw, _ := json.Marshal(args)
		r := tool.Call(context.Background(), raw)
		if len(r.Text) > 8<<10 {
			t.Errorf("a 64 KB argument gets a %d-byte result", len(r.Text))
		}
		if !strings.Contains(r.Text, "…") {
			t.Errorf("the result does not say the argument was cut: %.300s", r.Text)
		}
	}
}

// inputSchema is the input schema of tool's definition now.
func inputSchema(t *testing.T, ctx context.Context, tool *agent.Tool) *jsonschema.Schema {
	t.Helper()
	def, err := tool.Definition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return def.InputSchema
}

// TestToolCallUsesListingFromContext: under agentx.WithListing the tool
// answers from the listing given (skillet show's, made once for the
// command) and does not list again; without it, a skill added since is
// found.
func TestToolCallUsesListingFromContext(t *testing.T) {
	t.Parallel()
	c, ws := tempCatalog(t, map[string]string{
		"skills/alpha/SKILL.md": skillMD("name: alpha\ndescription: First.", "Alpha body."),
	}, nil)
	ctx := context.Background()
	l, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, ws, map[string]string{"skills/beta/SKILL.md": skillMD("name: beta\ndescription: Second.", "Beta body.")})
	tool := agent.NewTool(c, nil)
	given := agentx.WithListing(ctx, l)
	if r := tool.Call(given, json.RawMessage(`{"name":"alpha"}`)); r.IsError || !strings.Contains(r.Text, "Alpha body.") {
		t.Errorf("alpha from the given listing: %s", r.Text)
	}
	if r := tool.Call(given, json.RawMessage(`{"name":"beta"}`)); !r.IsError {
		t.Errorf("beta, added after the given listing was made, was found in it: %s", r.Text)
	}
	if r := tool.Call(ctx, json.RawMessage(`{"name":"beta"}`)); r.IsError || !strings.Contains(r.Text, "Beta body.") {
		t.Errorf("beta without a given listing: %s", r.Text)
	}
}

// TestToolNamesAreTheListing: under agentx.WithNames (the names of a
// listing's visible and hidden skills, skillet tool-schema's and show's
// over the persistent index) the tool's definition and every call are
// what they are under agentx.WithListing of that listing: a name no skill
// has answered from the names, any other call from a listing. On the
// examples (a hidden skill) and a corpus folder (many names to suggest
// from), with a list of skills, enum caps and hidden skills allowed.
func TestToolNamesAreTheListing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	catalogs := map[string]*catalog.Catalog{"examples": examplesCatalog(t)}
	if !testing.Short() {
		catalogs["corpus"], _ = corpusCatalog(t, "github-awesome-copilot", nil)
	}
	for cname, c := range catalogs {
		l, err := c.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var visible, hidden []string
		for _, s := range l.Skills {
			if s.Hidden() {
				hidden = append(hidden, s.Name)
			} else {
				visible = append(visible, s.Name)
			}
		}
		if len(visible) < 2 || (cname == "examples" && len(hidden) == 0) {
			t.Fatalf("%s: %d visible and %d hidden skills; the test needs more", cname, len(visible), len(hidden))
		}
		calls := []string{`{"name": "zzz"}`, `{"name": " relase-checklist "}`, `{"name": "Release-Checklist"}`,
			`{"name": "nonesuch", "path": "x.md"}`, `{}`, `{"query": "release"}`, `{"name": "x", "query": "y"}`,
			`{"path": "x.md"}`, `{"name": "   "}`}
		for _, n := range append(slices.Clone(visible[:2]), hidden...) {
			calls = append(calls, fmt.Sprintf(`{"name": %q}`, n), fmt.Sprintf(`{"name": %q}`, n[:len(n)-1]), fmt.Sprintf(`{"name": %q}`, n+"s"))
		}
		for oname, opts := range map[string]*agent.ToolOptions{
			"default": nil, "hidden allowed": {AllowHidden: true}, "enum of 1": {MaxEnum: 1}, "no enum": {MaxEnum: -1},
			"a list": {Skills: l.Skills[len(l.Skills)/2:]}, "none": {Skills: []*catalog.Skill{}},
		} {
			tool := agent.NewTool(c, opts)
			fromListing, fromNames := agentx.WithListing(ctx, l), agentx.WithNames(ctx, visible, hidden)
			want, got := inputSchema(t, fromListing, tool), inputSchema(t, fromNames, tool)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %s: the definition from the names differs from the listing's (-listing +names):\n%s", cname, oname, diff)
			}
			for _, args := range calls {
				want, got := tool.Call(fromListing, json.RawMessage(args)), tool.Call(fromNames, json.RawMessage(args))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s, %s, %s: the call under the names differs from the listing's (-listing +names):\n%s", cname, oname, args, diff)
				}
			}
		}
	}
}
