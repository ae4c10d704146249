//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"slices"
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
		{"two tokens", "# alice\n" + good + "\n\n# bob\n" + strings.Repeat("cd", 16) + "\n", 0o600, -1, false, ""},
		{"a short second token", good + "\nshort-token\n", 0o600, -1, false, "on line 2 has 11 characters; use at least 32"},
		{"a duplicate token", good + "\n" + good + "\n", 0o600, -1, false, "on line 2 is the one on line 1"},
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
			toks, err := readTokens(file)
			want, _ := splitTokens(tt.token)
			switch {
			case tt.want == "" && (err != nil || !slices.Equal(toks, want)):
				t.Errorf("readTokens = %q, %v; want %q", toks, err, want)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("readTokens = %q, %v; want an error saying %q", toks, err, tt.want)
			case err != nil && strings.Contains(err.Error(), good):
				t.Errorf("the error shows the token: %v", err)
			}
			if err != nil && !isUsageError(err) {
				t.Errorf("%v is not a usage error (exit 2)", err)
			}
		})
	}
	t.Setenv(tokenEnv, "short")
	if _, err := readTokens(""); err == nil || !strings.Contains(err.Error(), "$"+tokenEnv+" on line 1 has 5 characters") {
		t.Errorf("a short token in the environment: %v", err)
	}
	t.Setenv(tokenEnv, good)
	if toks, err := readTokens(""); err != nil || len(toks) != 1 || toks[0] != good {
		t.Errorf("a token in the environment: %q, %v", toks, err)
	}
}

// TestPrintConfigTeamFile: --print-config has the client read a token
// file of one token ($(cat FILE)), but not a team's file of several,
// which is no one client's: then the client sends $SKILLET_AUTH_TOKEN.
func TestPrintConfigTeamFile(t *testing.T) {
	t.Setenv(tokenEnv, "")
	a, b := strings.Repeat("ab", 16), strings.Repeat("cd", 16)
	for _, tt := range []struct {
		name, content string
		fromFile      bool
	}{
		{"one token", a + "\n", true},
		{"one token and a comment", "# alice\n" + a + "\n", true},
		{"two tokens", "# alice\n" + a + "\n# bob\n" + b + "\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "token")
			if err := os.WriteFile(file, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			c := serveConfig(&ServeOptions{HTTP: "127.0.0.1:8080", AuthTokenFile: file})
			if !c.token || (c.tokenFile != "") != tt.fromFile {
				t.Errorf("token %v, token file %q; want the file read by the client: %v", c.token, c.tokenFile, tt.fromFile)
			}
		})
	}
}
