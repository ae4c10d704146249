package catalog

import "strings"

// Preset is a named layout of skill roots: the folders one agent scans, so
// that one command shows what that agent would load (docs/discovery.md#roots).
// Project paths are relative to the workspace; user paths start with "~"
// (the home folder) or "$XDG_CONFIG_HOME" (default ~/.config).
type Preset struct {
	Name    string
	Project []string
	User    []string
	// Flat says loose NAME.md files directly inside a root are skills too
	// (Kestrel's flat form).
	Flat bool
	// Source says where the layout comes from.
	Source string
}

// DefaultPreset is the preset used when neither flags nor configuration name
// one.
const DefaultPreset = "agents"

// Presets lists every preset, the default first. It is data: adding a
// layout is adding a row.
var Presets = []Preset{
	{Name: "agents", Project: []string{".agents/skills", "skills"},
		User: []string{"~/.agents/skills", "$XDG_CONFIG_HOME/skillet/skills"}, Flat: true,
		Source: "the cross-client .agents/skills convention (Agent Skills client guide), Kestrel's skills/"},
	{Name: "claude", Project: []string{".claude/skills"}, User: []string{"~/.claude/skills"},
		Source: "Claude Code"},
	{Name: "codex", Project: []string{".agents/skills"}, User: []string{"~/.agents/skills", "~/.codex/skills"},
		Source: "OpenAI Codex"},
	{Name: "opencode", Project: []string{".opencode/skills", ".claude/skills", ".agents/skills"},
		User: []string{"~/.config/opencode/skills"}, Source: "OpenCode"},
	{Name: "gemini", Project: []string{".gemini/skills", ".agents/skills"}, User: []string{"~/.gemini/skills"},
		Source: "Gemini CLI"},
	{Name: "copilot", Project: []string{".github/skills", ".claude/skills", ".agents/skills"},
		User: []string{"~/.copilot/skills", "~/.claude/skills", "~/.agents/skills"}, Source: "GitHub Copilot"},
	{Name: "brute", Project: []string{".brute/skills"}, User: []string{"~/.config/brute/skills"},
		Source: "Brute, the Ruby agent (docs/hosts.md#brute)"},
	{Name: "kestrel", Project: []string{".kestrel/skills", "skills"}, Flat: true,
		Source: "Kestrel, the TypeScript agent (docs/hosts.md#kestrel)"},
}

// LookupPreset returns the preset of the given name (case-insensitive).
func LookupPreset(name string) (Preset, bool) {
	for _, p := range Presets {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Preset{}, false
}

// PresetNames returns the names of all presets in table order.
func PresetNames() []string {
	names := make([]string, len(Presets))
	for i, p := range Presets {
		names[i] = p.Name
	}
	return names
}
