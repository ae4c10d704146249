package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// pngBytes is a file that is not UTF-8 (a PNG signature and a NUL), so it
// must go out as a blob.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")

// fixture is a workspace with the cases the server must handle.
var fixture = map[string]string{
	"skills/alpha/SKILL.md":            "---\nname: alpha\ndescription: Alpha does things with files.\nlicense: MIT\nmetadata:\n  version: \"1.10\"\n  owner: team\nallowed-tools: Read Grep\n---\n\n# Alpha\n\nRead [the guide](references/guide.md) first.\n",
	"skills/alpha/references/guide.md": "# Guide\n\nStep one.\n",
	"skills/alpha/scripts/run.sh":      "#!/bin/sh\necho run\n",
	"skills/alpha/assets/logo.png":     string(pngBytes),
	"skills/alpha/assets/empty.txt":    "",
	"skills/alpha/docs/a b#c.md":       "odd name\n",
	"skills/beta/SKILL.md":             "---\nname: beta\ndescription: Beta is only invoked by the user.\ndisable-model-invocation: true\nargument-hint: the branch to clean\n---\nClean the branch.\n",
	"skills/crlf/SKILL.md":             "\ufeff---\r\nname: crlf\r\ndescription: Windows line endings and a BOM.\r\n---\r\nBody with CRLF.\r\n",
	"skills/colon/SKILL.md":            "---\nname: colon\ndescription: Use when: the YAML needs repair\n---\nRepaired.\n",
	"skills/under_score/SKILL.md":      "---\nname: under_score\ndescription: A name the specification does not allow.\n---\nLoose.\n",
	"skills/flat-one.md":               "---\nname: flat-one\ndescription: A flat-form skill.\n---\nFlat body.\n",
	"outside/secret.txt":               "SECRET outside the skill\n",
}

// writeTree writes files (path → content) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newWorkspace writes the fixture, plus a symlink from a skill to a file
// outside it where the system has symlinks, and returns the workspace.
func newWorkspace(t testing.TB) string {
	t.Helper()
	ws := t.TempDir()
	writeTree(t, ws, fixture)
	if runtime.GOOS != "windows" {
		if err := os.Symlink(filepath.Join(ws, "outside", "secret.txt"), filepath.Join(ws, "skills", "alpha", "references", "secret.md")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("guide.md", filepath.Join(ws, "skills", "alpha", "references", "link.md")); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// newCatalog opens the catalog of a workspace without user roots or
// configuration file.
func newCatalog(t testing.TB, ws string) *catalog.Catalog {
	t.Helper()
	c, err := catalog.New(t.Context(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// logBuffer collects a server's log for assertions.
type logBuffer struct{ bytes.Buffer }

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(&l.Buffer, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// newServer builds a server on the workspace.
func newServer(t testing.TB, ws string, opts *Options) *Server {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	s, err := New(t.Context(), newCatalog(t, ws), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// connect connects a client that knows the extension's methods to s over
// the SDK's in-memory transport.
func connect(t testing.TB, s *Server, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ctx := t.Context()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts)
	registerClient(t, c)
	cs, err := c.Connect(ctx, ct, sopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func registerClient(t testing.TB, c *mcp.Client) {
	t.Helper()
	if err := skillsext.Register(c); err != nil {
		t.Fatal(err)
	}
}

func listSkills(ctx context.Context, cs *mcp.ClientSession, cursor string) (*skillsext.ListSkillsResult, error) {
	return mcp.CallCustomMethod[*skillsext.ListSkillsParams, *skillsext.ListSkillsResult](ctx, cs, skillsext.MethodListSkills, &skillsext.ListSkillsParams{Cursor: cursor})
}

func getSkill(ctx context.Context, cs *mcp.ClientSession, uri string) (*skillsext.GetSkillResult, error) {
	return mcp.CallCustomMethod[*skillsext.GetSkillParams, *skillsext.GetSkillResult](ctx, cs, skillsext.MethodGetSkill, &skillsext.GetSkillParams{URI: uri})
}

func readDir(ctx context.Context, cs *mcp.ClientSession, uri, cursor string) (*skillsext.ReadDirectoryResult, error) {
	return mcp.CallCustomMethod[*skillsext.ReadDirectoryParams, *skillsext.ReadDirectoryResult](ctx, cs, skillsext.MethodReadDirectory, &skillsext.ReadDirectoryParams{URI: uri, Cursor: cursor})
}

// allSkills follows skills/list cursors to the end.
func allSkills(t testing.TB, cs *mcp.ClientSession) []*skillsext.SkillEntry {
	t.Helper()
	var all []*skillsext.SkillEntry
	cursor := ""
	for range 10_000 {
		res, err := listSkills(t.Context(), cs, cursor)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, res.Skills...)
		if res.NextCursor == "" {
			return all
		}
		cursor = res.NextCursor
	}
	t.Fatal("skills/list never ended")
	return nil
}

// allResources follows resources/list cursors to the end.
func allResources(t testing.TB, cs *mcp.ClientSession) []*mcp.Resource {
	t.Helper()
	var all []*mcp.Resource
	for r, err := range cs.Resources(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	return all
}

// wantCode fails unless err is a JSON-RPC error with the code.
func wantCode(t testing.TB, err error, code int64) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want JSON-RPC error %d", code)
	}
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		t.Fatalf("error %v (%T) is not a JSON-RPC error, want code %d", err, err, code)
	}
	if we.Code != code {
		t.Fatalf("error code %d (%s), want %d", we.Code, we.Message, code)
	}
}

// removeAll removes a path of the workspace.
func removeAll(ws, rel string) error {
	return os.RemoveAll(filepath.Join(ws, filepath.FromSlash(rel)))
}

// waitFor polls cond until it holds: for a state the server reaches on its
// own (a connection counted, a shutdown begun). The bound only keeps a
// broken test from hanging; it asserts nothing about time.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s never happened", what)
		}
		time.Sleep(time.Millisecond)
	}
}
