package profile

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestEveryProfileIsData(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range All() {
		if seen[p.Name] || len(p.Roots.Project) == 0 || p.Title == "" {
			t.Errorf("profile %q: duplicate, no project roots, or no title", p.Name)
		}
		seen[p.Name] = true
	}
	if got := Names(); !slices.Equal(got[:len(profileOrder)], profileOrder) {
		t.Errorf("profile names = %v, want %v first", got, profileOrder)
	}
	var decoded []string
	for _, p := range All() {
		decoded = append(decoded, p.Name)
	}
	if got := Names(); !slices.Equal(got, decoded) {
		t.Errorf("Names (from the file names) = %v, the decoded profiles = %v", got, decoded)
	}
	if p, _ := Lookup("AGENTS"); p == nil || !p.Native {
		t.Error("the agents profile is not found case-insensitively, or is not skillet's own")
	}
}

// TestProfilesParse: every embedded profile passes its own validation,
// names a root, and an unknown key is refused.
func TestProfilesParse(t *testing.T) {
	for _, p := range All() {
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(data); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		for _, o := range p.Precedence.Order {
			scope, label, _ := strings.Cut(o, ":")
			if (scope == "project" && !slices.Contains(p.Roots.Project, label)) || (scope == "user" && !slices.Contains(p.Roots.User, label)) || (scope != "project" && scope != "user") {
				t.Errorf("%s: precedence.order %q names no root of the profile", p.Name, o)
			}
		}
		if len(p.Precedence.Order) > 0 && len(p.Precedence.Order) != len(p.Roots.Project)+len(p.Roots.User) {
			t.Errorf("%s: precedence.order leaves roots out", p.Name)
		}
	}
	if _, err := Decode([]byte(`{"name":"x","title":"x","checked":"recorded","bogus":1}`)); err == nil {
		t.Error("an unknown key was accepted")
	}
	if _, err := Decode([]byte(`{"name":"x","title":"x","checked":"recorded","roots":{"walkUp":"sideways","noGit":"cwd"}}`)); err == nil {
		t.Error("an unknown walkUp was accepted")
	}
}

func TestSuggest(t *testing.T) {
	for in, want := range map[string]string{"claud": "claude", "CODX": "codex", "open": "opencode", "zzzzzz": ""} {
		if got := Suggest(in); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDecode: Decode never panics, and a profile it accepts encodes to
// JSON that it accepts again as the same profile.
func FuzzDecode(f *testing.F) {
	for _, p := range All() {
		data, err := json.Marshal(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"name":"x","title":"x","checked":"recorded","roots":{"walkUp":"cwd","noGit":"cwd"},"names":{"source":"field","pattern":"("}}`))
	f.Add([]byte(`{"name":"x"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("an accepted profile does not encode: %v", err)
		}
		q, err := Decode(again)
		if err != nil {
			t.Fatalf("an accepted profile, encoded, is refused: %v\n%s", err, again)
		}
		a, _ := json.Marshal(q)
		if string(a) != string(again) {
			t.Fatalf("decoding the encoded profile changed it:\n%s\n%s", again, a)
		}
	})
}
