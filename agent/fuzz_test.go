package agent_test

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
)

var fileResultRE = regexp.MustCompile(`(?s)^<skill_file name="box" path="([^"]*)" base="[^"]*">\n(.*)</skill_file>\n$`)

// FuzzToolCall drives the tool with arbitrary argument bytes. It must
// never panic, always answer, and never return a byte from outside the
// skill folder: the secret beside the folder, and in the body of a skill
// the tool is not given, never appears; a file it returns is the file of
// that path inside the folder.
func FuzzToolCall(f *testing.F) {
	const secret = "SECRET-31c9-never-returned"
	c, ws := confinementTree(f, secret)
	l, err := c.List(context.Background())
	if err != nil {
		f.Fatal(err)
	}
	var box []*catalog.Skill
	for _, s := range l.Skills {
		if s.Name == "box" {
			box = append(box, s)
		}
	}
	tool := agent.NewTool(c, &agent.ToolOptions{Skills: box, MaxFileBytes: 2000})
	boxDir, err := filepath.EvalSymlinks(filepath.Join(ws, "skills", "box"))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		``, `null`, `{}`, `[]`, `"x"`, `{"name":"box"}`, `{"name":"other"}`, `{"query":"boxed skill"}`,
		`{"name":"box","path":"references/notes.md"}`,
		`{"name":"box","path":"../../secret.txt"}`,
		`{"name":"box","path":"link-out.txt"}`,
		`{"name":"box","path":"link-rel.txt"}`,
		`{"name":"box","path":"link-dir/secret.txt"}`,
		`{"name":"box","path":"link-other.md"}`,
		`{"name":"box","path":"link-loop"}`,
		`{"name":"box","path":"binary.bin"}`,
		`{"name":"box","path":"big.txt"}`,
		`{"name":"box","path":"/` + strings.TrimPrefix(filepath.ToSlash(filepath.Join(ws, "secret.txt")), "/") + `"}`,
		`{"name":"box","path":"..\\..\\secret.txt"}`,
		`{"name":"box","path":"references/%2e%2e/%2e%2e/secret.txt"}`,
		`{"name":"box","path":"references/notes.md\u0000"}`,
		`{"name":1,"path":[]}`, `{"name":"box","extra":{}}`, `{"name":"box"`, `{"name":"\ud800"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		r := tool.Call(context.Background(), json.RawMessage(args))
		if r.Text == "" {
			t.Fatalf("Call(%q): empty result", args)
		}
		if strings.Contains(r.Text, secret) {
			t.Fatalf("Call(%q) returned the secret:\n%s", args, r.Text)
		}
		m := fileResultRE.FindStringSubmatch(r.Text)
		if r.IsError || m == nil {
			return
		}
		rel := html.UnescapeString(m[1])
		real, err := filepath.EvalSymlinks(filepath.Join(boxDir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatalf("Call(%q) returned %q, which does not resolve: %v", args, rel, err)
		}
		if inside, err := filepath.Rel(boxDir, real); err != nil || strings.HasPrefix(inside, "..") {
			t.Fatalf("Call(%q) returned %q, which resolves outside the folder to %s", args, rel, real)
		}
		data, err := os.ReadFile(real)
		if err != nil {
			t.Fatal(err)
		}
		content := string(data)
		if !strings.HasSuffix(content, "\n") {
			content += "\n"
		}
		if m[2] != content {
			t.Fatalf("Call(%q): returned text differs from %s", args, real)
		}
	})
}
