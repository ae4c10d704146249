package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failWriter fails every write, as a full disk or a closed stdout does.
type failWriter struct{}

var errNoSpace = errors.New("no space left on device")

func (failWriter) Write([]byte) (int, error) { return 0, errNoSpace }

// TestOutputWriteError checks that a command whose output cannot be
// written fails (exit 1) with the write's error on stderr, also the
// commands that print with fmt.Fprint and check no error themselves: a
// listing, prompt or skill cut short must not exit 0.
func TestOutputWriteError(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	dir := filepath.Join(ws, "skills", "deploy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: deploy\ndescription: Deploy the service.\n---\n\nDeploy it.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"list"},
		{"list", "--json"},
		{"prompt"},
		{"show", "deploy"},
		{"search", "deploy"},
		{"tool-schema"},
		{"lint", "--json"},
		{"version"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errb bytes.Buffer
			full := append(append([]string{}, args...), "-w", ws, "--no-user", "--no-cache")
			code := Run(context.Background(), full, &IO{In: strings.NewReader(""), Out: failWriter{}, Err: &errb})
			if code != exitFail || !strings.Contains(errb.String(), errNoSpace.Error()) {
				t.Errorf("exit %d, stderr %q; want exit %d and the write error", code, errb.String(), exitFail)
			}
		})
	}
}

// TestServeStoppedDuringLoad checks that a serve whose context is
// cancelled (SIGINT, SIGTERM) before it serves, during the first load of
// the skills, stops cleanly: exit 0 and no "context canceled" error.
func TestServeStoppedDuringLoad(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := Run(ctx, []string{"serve", "-w", ws, "--no-user", "--no-watch", "--no-cache"}, &IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	if code != exitOK || strings.Contains(errb.String(), "context canceled") {
		t.Errorf("exit %d, stderr %q; want exit 0 and no error", code, errb.String())
	}
}
