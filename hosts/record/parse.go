//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// entry is one skill as an agent listed it: the name and description it
// shows, the path it gives (absolute, "" when none) and whether the agent
// marks it as its own (built in, not from the workspace).
type entry struct {
	Name, Description, Path string
	Builtin                 bool
}

// parseCodex reads the JSON of "codex debug prompt-input": the developer
// message holding <skills_instructions>, whose "### Skill roots" table maps
// rN to a folder and whose "### Available skills" list has one line per
// skill, "- NAME: DESCRIPTION (file: rN/REL)". A skill under the bundled
// system root ($CODEX_HOME/skills/.system) is built in.
func parseCodex(out []byte) ([]entry, error) {
	var items []struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(out, &items); err != nil {
		return nil, fmt.Errorf("codex prompt-input: %w", err)
	}
	var block string
	for _, it := range items {
		for _, c := range it.Content {
			if i := strings.Index(c.Text, "<skills_instructions>"); i >= 0 {
				block = c.Text[i:]
				if j := strings.Index(block, "</skills_instructions>"); j >= 0 {
					block = block[:j]
				}
			}
		}
	}
	if block == "" {
		return nil, nil // no skill at all: Codex leaves the section out
	}
	roots := map[string]string{}
	rootRe := regexp.MustCompile("^- `(r[0-9]+)` = `(.*)`$")
	skillRe := regexp.MustCompile(`^- (.*?): (.*) \(file: (.*)\)$`)
	skillNoDescRe := regexp.MustCompile(`^- (.*?):? \(file: (.*)\)$`)
	var out2 []entry
	section := ""
	var cur *entry
	for _, line := range strings.Split(block, "\n") {
		if strings.HasPrefix(line, "### ") {
			section = strings.TrimPrefix(line, "### ")
			cur = nil
			continue
		}
		switch section {
		case "Skill roots":
			if m := rootRe.FindStringSubmatch(line); m != nil {
				roots[m[1]] = m[2]
			}
		case "Available skills":
			m := skillRe.FindStringSubmatch(line)
			var name, desc, file string
			if m != nil {
				name, desc, file = m[1], m[2], m[3]
			} else if m := skillNoDescRe.FindStringSubmatch(line); m != nil {
				name, file = m[1], m[2]
			} else {
				if cur != nil && line != "" {
					return nil, fmt.Errorf("codex prompt-input: unexpected line in the skills list: %q", line)
				}
				continue
			}
			path := file
			if r, rest, ok := strings.Cut(file, "/"); ok {
				if abs, ok := roots[r]; ok {
					path = abs + "/" + rest
				}
			}
			out2 = append(out2, entry{Name: name, Description: desc, Path: path,
				Builtin: strings.Contains(path, "/.codex/skills/.system/")})
			cur = &out2[len(out2)-1]
		}
	}
	return out2, nil
}

// claudeListHead starts the list of skills in the request Claude Code
// sends to the model.
const claudeListHead = "The following skills are available for use with the Skill tool:\n\n"

// parseClaude reads the body of the request Claude Code sent to the model
// (the first /v1/messages request of a "claude -p" run). The skills are a
// list in one of the text blocks of the messages (or the system prompt):
// entries "- NAME: DESCRIPTION", a description possibly running on over
// further lines; the list ends at a blank line not followed by "- ".
// Claude Code gives no paths, so Path is empty and built-ins are told apart
// by the caller.
func parseClaude(body []byte) ([]entry, error) {
	var req struct {
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("claude request: %w", err)
	}
	var texts []string
	collect := func(raw json.RawMessage) {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			texts = append(texts, s)
			return
		}
		var blocks []struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(raw, &blocks) == nil {
			for _, b := range blocks {
				texts = append(texts, b.Text)
			}
		}
	}
	collect(req.System)
	for _, m := range req.Messages {
		collect(m.Content)
	}
	for _, t := range texts {
		i := strings.Index(t, claudeListHead)
		if i < 0 {
			continue
		}
		return parseDashList(t[i+len(claudeListHead):]), nil
	}
	return nil, nil
}

// parseDashList reads "- NAME: DESCRIPTION" entries up to a blank line that
// is not followed by another entry. A line that does not start with "- "
// continues the description before it.
func parseDashList(s string) []entry {
	var out []entry
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "- ") && len(out) > 0 {
				out[len(out)-1].Description += "\n"
				continue
			}
			break
		}
		if strings.HasPrefix(line, "- ") {
			name, desc, _ := strings.Cut(line[2:], ": ")
			if !strings.Contains(line[2:], ": ") {
				name = strings.TrimSuffix(line[2:], ":")
			}
			out = append(out, entry{Name: name, Description: desc})
			continue
		}
		if len(out) == 0 {
			break
		}
		out[len(out)-1].Description += "\n" + line
	}
	return out
}

// parseOpenCode reads the JSON of "opencode debug skill": an array of
// {name, description, location, content}; location "<built-in>" marks
// OpenCode's own skills.
func parseOpenCode(out []byte) ([]entry, error) {
	var items []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Location    string `json:"location"`
	}
	if err := json.Unmarshal(jsonStart(out), &items); err != nil {
		return nil, fmt.Errorf("opencode debug skill: %w", err)
	}
	var es []entry
	for _, it := range items {
		e := entry{Name: it.Name, Description: it.Description, Path: it.Location}
		if strings.HasPrefix(it.Location, "<") || it.Location == "builtin" {
			e.Path, e.Builtin = "", true
		}
		es = append(es, e)
	}
	return es, nil
}

// parseAmp reads the JSON of "amp skill list --json": {"skills": [{name,
// description, baseDir, source}]}, baseDir a file:// URL of the skill's
// folder (recorded as the path, as for Copilot); source "builtin" marks
// Amp's own skills.
func parseAmp(out []byte) ([]entry, error) {
	var list struct {
		Skills []struct {
			Name        string          `json:"name"`
			Description json.RawMessage `json:"description"`
			BaseDir     string          `json:"baseDir"`
			Source      string          `json:"source"`
		} `json:"skills"`
	}
	if err := json.Unmarshal(jsonStart(out), &list); err != nil {
		return nil, fmt.Errorf("amp skill list: %w", err)
	}
	var es []entry
	for _, it := range list.Skills {
		// A description YAML reads as a number or a boolean is printed as
		// one; the model is shown its text.
		desc := string(it.Description)
		var s string
		if json.Unmarshal(it.Description, &s) == nil {
			desc = s
		}
		e := entry{Name: it.Name, Description: desc, Builtin: it.Source == "builtin"}
		if p, ok := strings.CutPrefix(it.BaseDir, "file://"); ok && !e.Builtin {
			if u, err := url.PathUnescape(p); err == nil {
				p = u
			}
			e.Path = p
		}
		es = append(es, e)
	}
	return es, nil
}

// parseCopilot reads the JSON of "copilot skill list --json": an array of
// {name, description, source, path, enabled}; source "builtin" marks
// Copilot's own skills. Disabled skills are not shown to the model and are
// left out.
func parseCopilot(out []byte) ([]entry, error) {
	var items []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Source      string `json:"source"`
		Path        string `json:"path"`
		Enabled     *bool  `json:"enabled"`
	}
	if err := json.Unmarshal(jsonStart(out), &items); err != nil {
		return nil, fmt.Errorf("copilot skill list: %w", err)
	}
	var es []entry
	for _, it := range items {
		if it.Enabled != nil && !*it.Enabled {
			continue
		}
		es = append(es, entry{Name: it.Name, Description: it.Description, Path: it.Path, Builtin: it.Source == "builtin"})
	}
	return es, nil
}

// jsonStart drops anything an agent prints before its JSON (a warning line).
func jsonStart(out []byte) []byte {
	s := string(out)
	for i := 0; i < len(s); i++ {
		if (s[i] == '[' || s[i] == '{') && (i == 0 || s[i-1] == '\n') {
			return []byte(s[i:])
		}
	}
	return out
}

// parseGemini reads "gemini skills list": after "Discovered Agent Skills:",
// one block per skill, written as "NAME [Enabled]\n  Description: DESC\n
// Location:    PATH\n\n" with DESC the description string exactly as the
// model is given it (no indentation, trimming or escaping is added; Gemini CLI
// packages/cli/src/commands/skills/list.ts and packages/core/src/prompts/
// snippets.ts renderAgentSkills at google-gemini/gemini-cli@5411f113). So the
// description is everything between "  Description: " and the next
// "\n  Location:    ": blank lines and trailing line breaks inside it are
// kept. "[Disabled]" skills are left out. "No skills discovered." is an
// empty list.
func parseGemini(out []byte) ([]entry, error) {
	s := string(out)
	i := strings.Index(s, "Discovered Agent Skills:")
	if i < 0 {
		if strings.Contains(s, "No skills discovered") {
			return nil, nil
		}
		return nil, fmt.Errorf("gemini skills list: no list in the output: %q", clip(s))
	}
	var es []entry
	for _, m := range geminiBlockRe.FindAllStringSubmatch(s[i:], -1) {
		if m[2] != "Enabled" {
			continue
		}
		es = append(es, entry{Name: m[1], Builtin: m[3] != "", Description: m[4], Path: m[5]})
	}
	return es, nil
}

// geminiBlockRe matches one skill of "gemini skills list": name, status,
// built-in mark, description (any characters, line breaks included), path.
var geminiBlockRe = regexp.MustCompile(`(?ms)^([^\n]*?) \[(Enabled|Disabled)\]( \[Built-in\])?\n  Description: (.*?)\n  Location:    ([^\n]*)\n`)

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// skillXMLRe matches one entry of an <available_skills> block.
var skillXMLRe = regexp.MustCompile(`(?s)<skill>\s*<name>(.*?)</name>\s*<description>(.*?)</description>\s*<location>(.*?)</location>\s*</skill>`)

var xmlUnescape = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&#39;", "'", "&#34;", `"`, "&amp;", "&")

// parseAvailableSkills reads the <available_skills> block of a model
// request (any string in the request's JSON holding one): entries of
// <skill><name/><description/><location/></skill>, their values XML-escaped
// and, in Qwen Code, wrapped in newlines (taken off; pi's values are not
// wrapped, and a description's final line break is kept). A location that is not a path
// (Qwen Code's "project", "user", "bundled") is a level: "bundled" marks a
// built-in, and the " (LEVEL)" Qwen Code appends to each description is
// taken off (the notes of the recording say so).
func parseAvailableSkills(body []byte) ([]entry, error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("model request: %w", err)
	}
	block := ""
	var walk func(any)
	walk = func(v any) {
		if block != "" {
			return
		}
		switch x := v.(type) {
		case string:
			if i := strings.Index(x, "<available_skills>"); i >= 0 {
				block = x[i:]
				if j := strings.Index(block, "</available_skills>"); j >= 0 {
					block = block[:j]
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, k := range []string{"system", "messages", "tools"} {
				if e, ok := x[k]; ok {
					walk(e)
				}
			}
			for k, e := range x {
				if k != "system" && k != "messages" && k != "tools" {
					walk(e)
				}
			}
		}
	}
	walk(v)
	if block == "" {
		return nil, nil
	}
	var es []entry
	for _, m := range skillXMLRe.FindAllStringSubmatch(block, -1) {
		// Qwen Code writes each value on lines of its own; pi writes it
		// between the tags, where a description's own final line break
		// must be kept.
		wrapped := strings.HasPrefix(m[1], "\n") && strings.HasSuffix(m[1], "\n")
		val := func(s string) string {
			if wrapped {
				s = strings.TrimSuffix(strings.TrimPrefix(s, "\n"), "\n")
			}
			return xmlUnescape.Replace(s)
		}
		e := entry{Name: val(m[1]), Description: val(m[2]), Path: val(m[3])}
		if !strings.Contains(e.Path, "/") {
			level := e.Path
			e.Description = strings.TrimSuffix(e.Description, " ("+level+")")
			e.Builtin = level == "bundled" || level == "builtin" || level == "extension"
			e.Path = ""
		}
		es = append(es, e)
	}
	return es, nil
}
