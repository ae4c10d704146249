package skillsext

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestManifestJSON(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Manifest
		ok   bool
	}{
		{`[{"uri":"skill://a/SKILL.md","digest":"sha256:00","size":3}]`, Manifest{Files: []SkillResource{{"skill://a/SKILL.md", "sha256:00", 3}}}, true},
		{`"dynamic"`, Manifest{Dynamic: true}, true},
		{` []`, Manifest{Files: []SkillResource{}}, true},
		{`null`, Manifest{}, false},
		{`"static"`, Manifest{}, false},
		{`{"uri":"x"}`, Manifest{}, false},
		{`[{"uri":1}]`, Manifest{}, false},
	} {
		var m Manifest
		err := json.Unmarshal([]byte(tt.in), &m)
		if (err == nil) != tt.ok {
			t.Errorf("%s: error %v, want ok=%v", tt.in, err, tt.ok)
			continue
		}
		if !tt.ok {
			continue
		}
		if diff := cmp.Diff(tt.want, m); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.in, diff)
		}
		back, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var again Manifest
		if err := json.Unmarshal(back, &again); err != nil || !cmp.Equal(m, again) {
			t.Errorf("%s: round trip through %s gave %+v, %v", tt.in, back, again, err)
		}
	}
}

// TestSealedEntry: an entry encoded once at build time marshals to the
// same JSON as one encoded field by field, and decodes back.
func TestSealedEntry(t *testing.T) {
	e := &SkillEntry{
		URI:         "skill://a/SKILL.md",
		Frontmatter: json.RawMessage(`{"name":"a","description":"d"}`),
		Resources:   Manifest{Files: []SkillResource{{"skill://a/SKILL.md", "sha256:ab", 10}}},
	}
	plain, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Seal(); err != nil {
		t.Fatal(err)
	}
	sealed, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:ab","size":10}]}`
	if string(plain) != want || string(sealed) != want {
		t.Errorf("plain %s\nsealed %s\nwant %s", plain, sealed, want)
	}
	var back SkillEntry
	if err := json.Unmarshal(sealed, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(e, &back, cmpopts.IgnoreUnexported(SkillEntry{})); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}
