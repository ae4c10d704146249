//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadTokenFile: a token file that others could read or write is
// refused, as ssh refuses such a key; group-readable only when root owns
// it (a mounted secret); and a token under minTokenChars is refused from
// the file and from the environment alike.
func TestReadTokenFile(t *testing.T) {
	t.Setenv(tokenEnv, "")
	good := strings.Repeat("ab", 16) // 32 characters
	root := os.Geteuid() == 0
	for _, tt := range []struct {
		name   string
		token  string
		mode   os.FileMode
		uid    int // -1: the test's own
		rootOK bool
		want   string // "" accepts
	}{
		{"owner only", good, 0o600, -1, false, ""},
		{"owner read-only", good + "\n", 0o400, -1, false, ""},
		{"others read", good, 0o644, -1, false, "readable by others (mode 0644)"},
		{"others read only", good, 0o604, -1, false, "readable by others"},
		{"group write", good, 0o620, -1, false, "writable by its group or by others"},
		{"others write", good, 0o602, -1, false, "writable by its group or by others"},
		{"group read, not root's", good, 0o640, 65534, false, "readable by its group (mode 0640) and not owned by root"},
		{"group read, root's", good, 0o440, 0, true, ""},
		{"short", strings.Repeat("x", minTokenChars-1), 0o600, -1, false, "has 31 characters; use at least 32"},
		{"empty", "\n", 0o600, -1, false, "is empty"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.uid >= 0 && !root {
				if tt.rootOK {
					t.Skip("a file owned by root needs the test to run as root")
				}
				tt.uid = -1 // the test's own file is not root's either
			}
			file := filepath.Join(t.TempDir(), "token")
			if err := os.WriteFile(file, []byte(tt.token), 0o600); err != nil {
				t.Fatal(err)
			}
			if tt.uid >= 0 {
				if err := os.Chown(file, tt.uid, -1); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chmod(file, tt.mode); err != nil {
				t.Fatal(err)
			}
			tok, err := readToken(file)
			switch {
			case tt.want == "" && (err != nil || tok != strings.TrimSpace(tt.token)):
				t.Errorf("readToken = %q, %v; want the token", tok, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("readToken = %q, %v; want an error saying %q", tok, err, tt.want)
			case err != nil && (strings.Contains(err.Error(), tt.token) && len(strings.TrimSpace(tt.token)) > 0):
				t.Errorf("the error shows the token: %v", err)
			}
			if err != nil && !isUsageError(err) {
				t.Errorf("%v is not a usage error (exit 2)", err)
			}
		})
	}
	t.Setenv(tokenEnv, "short")
	if _, err := readToken(""); err == nil || !strings.Contains(err.Error(), "$"+tokenEnv+" has 5 characters") {
		t.Errorf("a short token in the environment: %v", err)
	}
	t.Setenv(tokenEnv, good)
	if tok, err := readToken(""); err != nil || tok != good {
		t.Errorf("a token in the environment: %q, %v", tok, err)
	}
}
