package catalog

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// marketplace writes a generated marketplace repository below ws, from
// seed: plugins/NAME/.claude-plugin/plugin.json and plugins/NAME/skills/
// SKILL/SKILL.md, the skill names drawn from a small pool so that plugins
// share them; some manifests name the plugin otherwise than its folder,
// some give no name, and every plugin has a commands folder and a README.
// A folder of plugins that is no plugin holds files but no SKILL.md. It
// returns the names a listing should show, sorted.
func marketplace(t testing.TB, ws string, seed uint64) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	pool := []string{"init", "status", "deploy", "review", "test", "release", "lint", "docs"}
	files := map[string]string{
		".claude-plugin/marketplace.json": `{"name": "market", "plugins": []}`,
		"plugins/tools/notes.md":          "not a plugin\n",
		"plugins/tools/bin/run.md":        "not a plugin either\n",
	}
	var want []string
	n := 3 + rng.IntN(6)
	for i := range n {
		folder := fmt.Sprintf("plug%d", i)
		name := folder
		switch rng.IntN(3) {
		case 0:
			files["plugins/"+folder+"/.claude-plugin/plugin.json"] = `{"version": "1.0.0"}`
		case 1:
			name = fmt.Sprintf("named-%d", i)
			files["plugins/"+folder+"/.claude-plugin/plugin.json"] = fmt.Sprintf(`{"name": %q, "version": "1.0.0"}`, name)
		default:
			files["plugins/"+folder+"/.claude-plugin/plugin.json"] = fmt.Sprintf(`{"name": %q}`, name)
		}
		files["plugins/"+folder+"/README.md"] = "# " + name + "\n"
		files["plugins/"+folder+"/commands/run.md"] = "a command, not a skill\n"
		k := 1 + rng.IntN(len(pool))
		for _, s := range rand.New(rand.NewPCG(seed, uint64(i))).Perm(len(pool))[:k] {
			sk := pool[s]
			files["plugins/"+folder+"/skills/"+sk+"/SKILL.md"] = skillMD(sk)
			files["plugins/"+folder+"/skills/"+sk+"/reference.md"] = "bundled\n"
			want = append(want, name+":"+sk)
		}
	}
	writeTree(t, ws, files)
	slices.Sort(want)
	return want
}

// TestMarketplace lists generated marketplaces with skillet's own default:
// every plugin's skills, named PLUGIN:NAME, none lost to duplicate-name,
// and no finding for a plugin's own files or for a folder of plugins
// that is no plugin (docs/discovery.md#plugins).
func TestMarketplace(t *testing.T) {
	t.Parallel()
	seeds := uint64(20)
	if testing.Short() {
		seeds = 4 // go test ./... lists all twenty marketplaces
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			e := newEnv(t)
			want := marketplace(t, e.ws, seed)
			_, l := e.list(t, nil)
			got := names(l)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("names\n got %v\nwant %v", got, want)
			}
			if len(l.Diagnostics) > 0 {
				t.Errorf("diagnostics: %v", l.Diagnostics)
			}
			for _, s := range l.Skills {
				plugin, bare, _ := strings.Cut(s.Name, ":")
				if s.Plugin != plugin || s.Parsed().Name != bare {
					t.Errorf("%s: Plugin %q, Parsed().Name %q", s.Name, s.Plugin, s.Parsed().Name)
				}
			}
			// The same repository as an extra root: the walk meets the
			// plugins below plugins/ and names them alike.
			_, lx := e.list(t, &Options{Directories: []string{"none"}, NoUser: true, ExtraPaths: []string{e.ws}})
			gotx := names(lx)
			slices.Sort(gotx)
			if !slices.Equal(gotx, want) {
				t.Fatalf("extra root: names\n got %v\nwant %v", gotx, want)
			}
		})
	}
}

// TestPluginWithoutNamespace: a host whose profile does not namespace
// plugin skills walks a plugin as any grouping folder, and of two
// plugins' init one loads, as before.
func TestPluginWithoutNamespace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		".brute/skills/a/.claude-plugin/plugin.json": `{"name": "a"}`,
		".brute/skills/a/skills/init/SKILL.md":       skillMD("init"),
		".brute/skills/b/.claude-plugin/plugin.json": `{"name": "b"}`,
		".brute/skills/b/skills/init/SKILL.md":       skillMD("init"),
	})
	_, l := e.list(t, &Options{Preset: "brute", NoUser: true})
	if got := names(l); !slices.Equal(got, []string{"init"}) {
		t.Errorf("names %v, want [init]", got)
	}
	lost := filepath.Join(e.ws, ".brute/skills/b/skills/init/SKILL.md")
	if !slices.ContainsFunc(l.Diagnostics, func(d skill.Diagnostic) bool { return d.Path == lost }) {
		t.Errorf("no finding on %s: %v", lost, l.Diagnostics)
	}
}

// TestPluginManifest: a manifest that is not JSON, or whose name cannot
// prefix a skill name, names the plugin after its folder with a warning
// naming the file; one without a name does so silently.
func TestPluginManifest(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		manifest, want string
		warn           bool
	}{
		{`{"name": "tools"}`, "tools:init", false},
		{`{"description": "no name"}`, "box:init", false},
		{`{"name": "a:b"}`, "box:init", true},
		{`{"name": "has space"}`, "box:init", true},
		{`{"name": 7}`, "box:init", true},
		{`{"name": "Tools"}`, "box:init", true},
		{`{"name": ""}`, "box:init", true},
		{`{name: tools}`, "box:init", true},
	} {
		t.Run(tt.manifest, func(t *testing.T) {
			e := newEnv(t)
			writeTree(t, e.ws, map[string]string{
				"plugins/box/.claude-plugin/plugin.json": tt.manifest,
				"plugins/box/skills/init/SKILL.md":       skillMD("init"),
			})
			_, l := e.list(t, &Options{NoUser: true})
			if got := names(l); !slices.Equal(got, []string{tt.want}) {
				t.Errorf("names %v, want [%s]", got, tt.want)
			}
			d := findDiag(l, diagcode.Unreadable)
			if (d != nil) != tt.warn || d != nil && d.Path != filepath.Join(e.ws, "plugins/box/.claude-plugin/plugin.json") {
				t.Errorf("warning %v, want one: %v", d, tt.warn)
			}
		})
	}
}

// TestPluginFolderName: a plugin without a name in its manifest is named
// after its folder, in kebab-case when the folder's name is not.
func TestPluginFolderName(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"plugins/My Box/.claude-plugin/plugin.json": `{}`,
		"plugins/My Box/skills/init/SKILL.md":       skillMD("init"),
	})
	_, l := e.list(t, &Options{NoUser: true})
	if got := names(l); !slices.Equal(got, []string{"my-box:init"}) || len(l.Diagnostics) > 0 {
		t.Errorf("names %v, diagnostics %v; want [my-box:init] and none", got, l.Diagnostics)
	}
}
