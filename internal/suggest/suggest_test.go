package suggest

import "testing"

func TestNearest(t *testing.T) {
	cmds := []string{"list", "validate", "read-properties", "to-prompt", "prompt", "show", "search", "tool-schema", "lint", "new", "serve", "version"}
	keys := []string{"directories", "maxSkillBytes", "maxSkills", "toolName", "preset", "userRoots", "extraPaths", "trustedPaths", "mode", "maxDescriptionChars", "catalogBudgetChars"}
	for _, c := range []struct {
		typed string
		known []string
		want  string
	}{
		{"lsit", cmds, "list"},  // transposition
		{"lint", cmds, "lint"},  // exact
		{"serv", cmds, "serve"}, // prefix
		{"valdiate", cmds, "validate"},
		{"shwo", cmds, "show"},
		{"xyz", cmds, ""}, // nothing close
		{"completely-different", cmds, ""},
		{"maxskills", keys, "maxSkills"}, // case
		{"maxSkill", keys, "maxSkills"},
		{"maxSkillByte", keys, "maxSkillBytes"},
		{"extrapath", keys, "extraPaths"},
		{"dirs", keys, ""},
		{"", cmds, ""},
		{"a", []string{"b"}, "b"}, // one edit on a one-letter word
	} {
		if got := Nearest(c.typed, c.known); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.typed, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"ab", "ba", 1}, {"flaw", "lawn", 2}, {"héllo", "hello", 1},
	} {
		if got := distance([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func FuzzNearest(f *testing.F) {
	f.Add("lsit", "list")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, typed, known string) {
		got := Nearest(typed, []string{known})
		if got != "" && got != known {
			t.Fatalf("Nearest returned %q, not one of the known words", got)
		}
		if d := distance([]rune(typed), []rune(known)); d < 0 || d > max(len([]rune(typed)), len([]rune(known))) {
			t.Fatalf("distance %d out of range", d)
		}
	})
}
