package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/profile"
)

// TestNewPassesEverything: what skillet new writes (without --when) passes
// lint, lint --strict with warnings failing, validate and lint --target for
// every host profile, with no finding at all.
func TestNewPassesEverything(t *testing.T) {
	t.Parallel()
	var hosts []string
	for _, p := range profile.All() {
		if !p.Native {
			hosts = append(hosts, p.Name)
		}
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, &IO{Out: &out, Err: &errb})
		return code, out.String(), errb.String()
	}
	for i, extra := range [][]string{
		{"--description", "Publish a release safely."},
		{"--description", "Deploy: the \"safe\" way #1", "--triggers", "the user says ship it: now", "--license", "Apache-2.0", "--allowed-tools", "Read Bash(git:*)"},
		{"--description", strings.Repeat("Check the release notes. ", 9), "--license", "LICENSE.txt"},
	} {
		ws := t.TempDir()
		args := append([]string{"new", "My Skill", "-w", ws, "--no-user"}, extra...)
		if code, _, stderr := run(args...); code != 0 {
			t.Fatalf("case %d: new: exit %d: %s", i, code, stderr)
		}
		dir := filepath.Join(ws, ".agents", "skills", "my-skill")
		for _, lint := range [][]string{
			{"lint", "-w", ws, "--no-user", "--fail-on", "warning"},
			{"lint", "-w", ws, "--no-user", "--strict", "--fail-on", "warning"},
			{"validate", dir},
		} {
			code, stdout, stderr := run(lint...)
			if code != 0 || (lint[0] == "lint" && stdout != "") {
				t.Errorf("case %d: %s: exit %d\n%s%s", i, strings.Join(lint, " "), code, stdout, stderr)
			}
		}
		// new --target H writes where H reads: lint --target H passes.
		for _, h := range hosts {
			ws := t.TempDir()
			if code, _, stderr := run(append([]string{"new", "My Skill", "-w", ws, "--no-user", "--target", h}, extra...)...); code != 0 {
				t.Fatalf("case %d: new --target %s: exit %d: %s", i, h, code, stderr)
			}
			lint := []string{"lint", "-w", ws, "--no-user", "--strict", "--fail-on", "warning", "--target", h}
			if code, stdout, stderr := run(lint...); code != 0 || stdout != "" {
				t.Errorf("case %d: %s: exit %d\n%s%s", i, strings.Join(lint, " "), code, stdout, stderr)
			}
		}
	}
}
