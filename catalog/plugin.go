package catalog

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/spec"
	"github.com/skillet-go/skillet/skill"
)

// A plugin is a folder holding .claude-plugin/plugin.json; its skills sit
// in its skills folder and are named PLUGIN:NAME where the profile's
// Names.Plugin says so (docs/discovery.md#plugins; Claude Code:
// https://code.claude.com/docs/en/plugins,
// https://code.claude.com/docs/en/plugins-reference).
const (
	pluginFolder   = ".claude-plugin"
	pluginManifest = pluginFolder + "/plugin.json"
	pluginSkills   = "skills"
	// maxManifestBytes bounds the plugin.json read for its name.
	maxManifestBytes = 64 << 10
)

// listedName returns the listed name of skill name in plugin plugin:
// "PLUGIN:NAME", or name when plugin is "".
func listedName(plugin, name string) string {
	if plugin == "" {
		return name
	}
	return plugin + ":" + name
}

// OwnName is the skill's own name: Name without the plugin's prefix
// ("init" for "p1:init"), the name its frontmatter gives (as normalized).
func (s *Skill) OwnName() string {
	if s.Plugin == "" {
		return s.Name
	}
	return strings.TrimPrefix(s.Name, s.Plugin+":")
}

// pluginEntries walks a plugin folder dir (symlink-free path real): only
// its skills folder, with the candidates found there named after the
// plugin. A folder whose .claude-plugin holds no plugin.json is walked as
// any grouping folder. It reports whether the folder holds a file, as
// entries does; a plugin's own files (README.md, plugin.json) never make
// a file-missing finding, so it is always false.
func (w *walker) pluginEntries(dir, real string, depth int, children []child) bool {
	name, ok := w.pluginName(dir)
	if !ok {
		return w.entries(dir, real, depth, children)
	}
	for i := range children {
		if children[i].name() != pluginSkills {
			continue
		}
		w.plugin = name
		w.entries(dir, real, depth, children[i:i+1])
		w.plugin = ""
	}
	return false
}

// pluginName reads the plugin name of folder dir from its plugin.json:
// the "name" string when it is a usable name (no white space, ':', '/'
// or '\'), else the folder's name, with a warning when the file is there
// but its name cannot be used. ok is false when dir holds no plugin.json.
func (w *walker) pluginName(dir string) (name string, ok bool) {
	path := filepath.Join(dir, pluginManifest)
	if !pathExists(path) {
		return "", false
	}
	folder := folderPluginName(dir)
	res, err := readSkillFile(path, maxManifestBytes, w.allowed)
	if err != nil {
		w.diags = append(w.diags, skill.Diagnostic{Code: diagcode.Unreadable, Severity: skill.SeverityWarning, Path: path,
			Message: "the plugin manifest cannot be read: " + errText(err) + "; the plugin's skills are named " + folder + ":NAME, after its folder"})
		return folder, true
	}
	defer res.release()
	var m struct {
		Name any `json:"name"`
	}
	why := ""
	if err := json.Unmarshal(res.data, &m); err != nil {
		why = "it is not JSON: " + err.Error()
	} else if s, isStr := m.Name.(string); m.Name == nil {
		return folder, true // no name: the folder's, as Claude Code does
	} else if !isStr || !usablePluginName(s) {
		why = "its \"name\" is not a plugin name in kebab-case (lower-case letters, digits, '.', '_' and '-')"
	} else {
		return s, true
	}
	w.diags = append(w.diags, skill.Diagnostic{Code: diagcode.Unreadable, Severity: skill.SeverityWarning, Path: path,
		Message: "the plugin manifest cannot be used: " + why + "; the plugin's skills are named " + folder + ":NAME, after its folder"})
	return folder, true
}

// usablePluginName reports whether s can prefix a skill name: at most
// skill.MaxNameChars of lower-case letters, digits, '.', '_' and '-',
// starting with a letter or digit (Claude Code asks for kebab-case); such
// a name is also the authority of a skill:// URI (docs/mcp.md#plugin-skills).
func usablePluginName(s string) bool {
	if s == "" || len(s) > spec.MaxNameChars || s[0] == '.' || s[0] == '_' || s[0] == '-' {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
	})
}

// folderPluginName is the plugin name taken from its folder: the folder's
// name, in kebab-case when it is not a usable name as it is.
func folderPluginName(dir string) string {
	folder := filepath.Base(dir)
	if usablePluginName(folder) {
		return folder
	}
	if n := skill.Normalize(folder); n != "" {
		return n
	}
	return folder
}
