package catalog

import (
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/internal/ignore"
)

// AppliesTo reports whether the skill applies to the files the agent works
// on now, by its frontmatter's paths field (Claude Code: a skill offered
// only when the files at hand match its globs;
// https://code.claude.com/docs/en/skills#frontmatter-reference): true when
// the skill has no paths, or when one of files (paths relative to the
// workspace, "/" or the OS separator) matches one of its globs. paths is a
// YAML list or a comma-separated string; each glob is read with
// .gitignore's rules (docs/discovery.md#paths): "*.py" matches at any
// depth, "src/**/*.ts" below src. A skill whose paths hold no usable glob
// applies everywhere. The catalog never filters by it: the caller passes
// the files it has and leaves out the skills that do not apply.
func (s *Skill) AppliesTo(files []string) bool {
	m := s.pathsMatcher()
	if m == nil {
		return true
	}
	for _, f := range files {
		f = strings.TrimPrefix(filepath.ToSlash(filepath.Clean(f)), "./")
		if m.Excluded(f, false) {
			return true
		}
	}
	return false
}

// pathsMatcher is the matcher of the skill's paths globs, nil when it has
// none.
func (s *Skill) pathsMatcher() *ignore.Matcher {
	p := s.Parsed()
	if p == nil {
		return nil
	}
	v, ok := p.Frontmatter.Get("paths")
	if !ok {
		return nil
	}
	var globs []string
	switch v := v.(type) {
	case string:
		globs = strings.Split(v, ",")
	case []any:
		for _, g := range v {
			if g, ok := g.(string); ok {
				globs = append(globs, g)
			}
		}
	}
	var lines []string
	for _, g := range globs {
		if g = strings.TrimSpace(g); g != "" && !strings.HasPrefix(g, "!") && !strings.HasPrefix(g, "#") {
			lines = append(lines, g)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	m, _ := ignore.Parse([]byte(strings.Join(lines, "\n")))
	return m
}
