//go:build unix

package catalog

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFIFOAndDevices checks that a named pipe or a device called SKILL.md
// neither blocks discovery nor gets read: it is reported and skipped.
func TestFIFOAndDevices(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/ok/SKILL.md": skillMD("ok"),
		"skills/pipe/<dir>":  "<dir>",
		"skills/zero/<dir>":  "<dir>",
	})
	if err := syscall.Mkfifo(filepath.Join(e.ws, "skills/pipe/SKILL.md"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	// A symlink to a device inside a trusted path: the boundary allows it,
	// the regular-file rule refuses it.
	if err := os.Symlink("/dev/zero", filepath.Join(e.ws, "skills/zero/SKILL.md")); err != nil {
		t.Fatal(err)
	}
	writeTree(t, e.ws, map[string]string{"skillet.yaml": "trustedPaths: [/dev]\n"})
	_, l := e.list(t, &Options{NoUser: true})
	if diff := cmp.Diff([]string{"ok"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	want := []string{"unreadable skills/pipe/SKILL.md", "unreadable skills/zero/SKILL.md"}
	if diff := cmp.Diff(want, codes(l, e.ws)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for _, d := range l.Diagnostics {
		if !strings.Contains(d.Message, "named pipe") && !strings.Contains(d.Message, "device") {
			t.Errorf("the message does not say what the file is: %s", d.Message)
		}
	}
}

// TestPermissionDenied checks that unreadable files and folders are
// reported (unreadable) and the rest still loads. Root reads everything, so
// as root the test re-runs itself as the user nobody.
func TestPermissionDenied(t *testing.T) {
	t.Parallel()
	if dir := os.Getenv("SKILLET_TEST_PERM_DIR"); dir != "" {
		checkPermissionDenied(t, dir)
		return
	}
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"ws/skills/ok/SKILL.md":       skillMD("ok"),
		"ws/skills/secret/SKILL.md":   skillMD("secret"),
		"ws/skills/locked/x/SKILL.md": skillMD("x"),
		"home/<dir>":                  "<dir>",
	})
	must(t, os.Chmod(filepath.Join(base, "ws/skills/secret/SKILL.md"), 0o000))
	must(t, os.Chmod(filepath.Join(base, "ws/skills/locked"), 0o000))
	t.Cleanup(func() { os.Chmod(filepath.Join(base, "ws/skills/locked"), 0o755) })
	if os.Geteuid() != 0 {
		checkPermissionDenied(t, base)
		return
	}

	// Make the tree and a copy of the test binary reachable for nobody.
	for p := base; p != "/" && p != "."; p = filepath.Dir(p) {
		if strings.HasPrefix(p, os.TempDir()) && p != os.TempDir() {
			must(t, os.Chmod(p, 0o755))
		}
	}
	bin := filepath.Join(base, "catalog.test")
	copyFile(t, os.Args[0], bin)
	must(t, os.Chmod(bin, 0o755))
	cmd := exec.Command(bin, "-test.run=^TestPermissionDenied$", "-test.v")
	cmd.Env = append(os.Environ(), "SKILLET_TEST_PERM_DIR="+base, "HOME="+filepath.Join(base, "home"))
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestPermissionDenied") {
		t.Fatalf("the check did not run as nobody:\n%s", out)
	}
}

func checkPermissionDenied(t *testing.T, base string) {
	c, err := New(context.Background(), &Options{Workspace: filepath.Join(base, "ws"), home: filepath.Join(base, "home"), NoUser: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"ok"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	want := []string{"unreadable ws/skills/locked", "unreadable ws/skills/secret/SKILL.md"}
	if diff := cmp.Diff(want, codes(l, base)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	must(t, err)
	defer in.Close()
	out, err := os.Create(to)
	must(t, err)
	_, err = io.Copy(out, in)
	must(t, err)
	must(t, out.Close())
}
