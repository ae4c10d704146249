package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestRun runs the loop on the repository's examples and checks that a
// skill is chosen from the catalog, loaded, a referenced file read, and
// both recorded.
func TestRun(t *testing.T) {
	tests := []struct {
		task  string
		want  []string
		skill string
	}{
		{
			task: "Please ship version 1.5.0 of this project.",
			want: []string{
				"<name>release-checklist</name>",
				`=== turn 2: assistant calls use_skill {"name":"release-checklist"} ===`,
				"# Skill: release-checklist",
				`=== turn 3: assistant calls use_skill {"name":"release-checklist","path":"references/versioning.md"} ===`,
				"<skill_file name=\"release-checklist\" path=\"references/versioning.md\"",
				"[session] release-checklist: instructions (1189 bytes)",
				"[session] release-checklist: references/versioning.md (376 bytes)",
				"I will follow the release-checklist skill:",
			},
			skill: "release-checklist",
		},
		{
			task:  "Write the commit message for my staged changes.",
			want:  []string{`calls use_skill {"name":"commit-message"}`, "I will follow the commit-message skill:"},
			skill: "commit-message",
		},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := run(context.Background(), &out, defaultWorkspace(), tt.task); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%q: output lacks %q:\n%s", tt.task, w, text)
			}
		}
		if strings.Contains(text, "rotate-secrets") {
			t.Errorf("%q: the hidden skill reached the model", tt.task)
		}
		if !regexp.MustCompile(`(?m)^skills used in this run: ` + tt.skill + `$`).MatchString(text) {
			t.Errorf("%q: session record:\n%s", tt.task, text)
		}
	}
}

// TestRunSearchFallback: a request the catalog does not match makes the
// stand-in model search with the tool's query argument.
func TestRunSearchFallback(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, defaultWorkspace(), "zzz qqq"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `calls use_skill {"query":"zzz qqq"}`) || !strings.Contains(out.String(), `No skill matches "zzz qqq"`) ||
		!strings.Contains(out.String(), "No skill covers this request") {
		t.Errorf("output:\n%s", out.String())
	}
}
