package catalog

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/profile"
)

// FuzzParseConfig checks that any configuration text either parses or
// fails with a *ConfigError carrying a position inside the text, and never
// panics.
func FuzzParseConfig(f *testing.F) {
	for _, seed := range []string{
		"directories: [.agents/skills, skills]\nmaxSkillBytes: 64000\nmaxSkills: 100\ntoolName: use_skill\n",
		"preset: claude\nuserRoots: ~/x\nextraPaths: [a, b]\ntrustedPaths: [/tmp]\nmode: strict\n",
		"maxDescriptionChars: 240\ncatalogBudgetChars: 8000\nunknown: 1\n",
		"lint:\n  select: [name, broken-reference]\n  severity: {name: error}\n  perPathIgnores:\n    a/**: [x]\n  bogus: 1\n",
		"lint: [x]\n", "lint:\n  select: {a: b}\n  severity: [x]\n",
		"maxSkills: -1\n", "directories: {a: b}\n", "- list\n", "", "a: &a [*a]\n", "toolName: 'x y'\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, diags, err := parseConfig("/ws/skillet.yaml", data)
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %T is not a *ConfigError: %v", err, err)
			}
			if cfg != nil {
				t.Fatal("a config came back with an error")
			}
			return
		}
		if cfg == nil {
			t.Fatal("no config and no error")
		}
		if cfg.MaxSkills < 0 || cfg.MaxSkillBytes < 0 || cfg.MaxDescriptionChars < 0 || cfg.CatalogBudgetChars < 0 {
			t.Fatalf("negative limit accepted: %+v", cfg)
		}
		if cfg.Preset != "" {
			if _, ok := profile.Lookup(cfg.Preset); !ok {
				t.Fatalf("unknown preset accepted: %q", cfg.Preset)
			}
		}
		for _, d := range diags {
			if d.Line < 1 {
				t.Fatalf("diagnostic without a position: %v", d)
			}
		}
	})
}

// FuzzSplitWords holds splitWords to the definition it implements faster:
// FieldsFunc over the lower-cased text at every rune that is neither a
// letter nor a digit (invalid UTF-8 included).
func FuzzSplitWords(f *testing.F) {
	for _, seed := range []string{"", "Release notes: v1.2, CHANGELOG-writer", "Ünïcödé ΣΊΣΥΦΟΣ straße İstanbul", "a\xffb\xc3", "日本語のテキスト 123", "  --  ", "K\u212aelvin"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.FieldsFunc(strings.ToLower(s), notWord)
		if got := splitWords(s); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("splitWords(%q) = %q, want %q", s, got, want)
		}
	})
}
