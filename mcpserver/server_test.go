package mcpserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/mcpserver/skillsext"
	"github.com/skillet-go/skillet/skill"
)

const legacy = "2025-11-25"

func TestInitializeCapabilities(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	for _, version := range []string{legacy, skillsext.ProtocolCacheable} {
		t.Run(version, func(t *testing.T) {
			cs := connect(t, s, nil, &mcp.ClientSessionOptions{ProtocolVersion: version})
			ir := cs.InitializeResult()
			if ir.ProtocolVersion != version {
				t.Fatalf("negotiated %s, want %s", ir.ProtocolVersion, version)
			}
			caps := ir.Capabilities
			if caps.Resources == nil || !caps.Resources.ListChanged {
				t.Errorf("resources capability %+v, want listChanged", caps.Resources)
			}
			if caps.Prompts == nil || caps.Tools == nil {
				t.Errorf("prompts %+v, tools %+v: want both", caps.Prompts, caps.Tools)
			}
			// The settings object sits inline under the extension's key.
			got, err := json.Marshal(caps.Extensions[skillsext.ExtensionID])
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != `{"directoryRead":true}` {
				t.Errorf("extensions[%q] = %s, want {\"directoryRead\":true}", skillsext.ExtensionID, got)
			}
			if ir.ServerInfo.Name != "skillet" {
				t.Errorf("serverInfo %+v", ir.ServerInfo)
			}
		})
	}
}

func TestResourcesList(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	cs := connect(t, s, nil, nil)
	got := map[string]*mcp.Resource{}
	for _, r := range allResources(t, cs) {
		got[r.URI] = r
	}
	want := map[string]mcp.Resource{
		"skill://alpha/SKILL.md":            {Name: "alpha", Description: "Alpha does things with files.", MIMEType: "text/markdown", Size: int64(len(fixture["skills/alpha/SKILL.md"]))},
		"skill://alpha/references/guide.md": {Name: "alpha/references/guide.md", MIMEType: "text/markdown", Size: 19},
		"skill://alpha/scripts/run.sh":      {Name: "alpha/scripts/run.sh", MIMEType: "text/x-shellscript", Size: 19},
		"skill://alpha/assets/logo.png":     {Name: "alpha/assets/logo.png", MIMEType: "image/png", Size: int64(len(pngBytes))},
		"skill://alpha/assets/empty.txt":    {Name: "alpha/assets/empty.txt", MIMEType: "text/plain"},
		"skill://alpha/docs/a%20b%23c.md":   {Name: "alpha/docs/a b#c.md", MIMEType: "text/markdown", Size: 9},
		"skill://beta/SKILL.md":             {Name: "beta", Description: "Beta is only invoked by the user.", MIMEType: "text/markdown", Size: int64(len(fixture["skills/beta/SKILL.md"]))},
		"skill://crlf/SKILL.md":             {Name: "crlf", Description: "Windows line endings and a BOM.", MIMEType: "text/markdown", Size: int64(len(fixture["skills/crlf/SKILL.md"]))},
		"skill://colon/SKILL.md":            {Name: "colon", Description: "Use when: the YAML needs repair", MIMEType: "text/markdown", Size: int64(len(fixture["skills/colon/SKILL.md"]))},
		"skill://under_score/SKILL.md":      {Name: "under_score", Description: "A name the specification does not allow.", MIMEType: "text/markdown", Size: int64(len(fixture["skills/under_score/SKILL.md"]))},
		"skill://flat-one/SKILL.md":         {Name: "flat-one", Description: "A flat-form skill.", MIMEType: "text/markdown", Size: int64(len(fixture["skills/flat-one.md"]))},
	}
	if hasSymlinks() {
		// A symlink inside the folder is served; one that leads out is not.
		want["skill://alpha/references/link.md"] = mcp.Resource{Name: "alpha/references/link.md", MIMEType: "text/markdown", Size: 19}
	}
	for uri, w := range want {
		r := got[uri]
		if r == nil {
			t.Errorf("%s is not listed", uri)
			continue
		}
		w.URI = uri
		if diff := cmp.Diff(w, *r); diff != "" {
			t.Errorf("%s (-want +got):\n%s", uri, diff)
		}
	}
	for uri := range got {
		if _, ok := want[uri]; !ok {
			t.Errorf("unexpected resource %s", uri)
		}
	}
}

func hasSymlinks() bool { return os.PathSeparator == '/' }

// diskPath maps a served URI of the fixture to its file.
func diskPath(ws, uri string) string {
	name, rel, err := parseURI(uri)
	if err != nil {
		panic(err)
	}
	if name == "flat-one" {
		return filepath.Join(ws, "skills", "flat-one.md")
	}
	return filepath.Join(ws, "skills", name, filepath.FromSlash(rel))
}

// TestReadBytes reads every listed resource and compares the bytes with
// the file on disk: text for UTF-8, blob otherwise, byte for byte (BOM,
// CRLF and empty files included).
func TestReadBytes(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	for _, version := range []string{legacy, skillsext.ProtocolCacheable} {
		t.Run(version, func(t *testing.T) {
			cs := connect(t, s, nil, &mcp.ClientSessionOptions{ProtocolVersion: version})
			for _, r := range allResources(t, cs) {
				res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: r.URI})
				if err != nil {
					t.Fatalf("%s: %v", r.URI, err)
				}
				if len(res.Contents) != 1 {
					t.Fatalf("%s: %d contents", r.URI, len(res.Contents))
				}
				c := res.Contents[0]
				want, err := os.ReadFile(diskPath(ws, r.URI))
				if err != nil {
					t.Fatal(err)
				}
				text := len(want) > 0 && !bytes.ContainsAny(want, "\x00") && string(want) == strings.ToValidUTF8(string(want), "?")
				got := c.Blob
				if text {
					if c.Blob != nil || c.Text == "" {
						t.Errorf("%s: want text, got blob %d bytes / text %d bytes", r.URI, len(c.Blob), len(c.Text))
					}
					got = []byte(c.Text)
				} else if c.Text != "" {
					t.Errorf("%s: binary file sent as text", r.URI)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s: served %q, file has %q", r.URI, got, want)
				}
				if c.URI != r.URI || c.MIMEType != r.MIMEType {
					t.Errorf("%s: contents uri %q mime %q, want %q %q", r.URI, c.URI, c.MIMEType, r.URI, r.MIMEType)
				}
			}
		})
	}
}

// TestBadURIs: every URI that is not a served file is a JSON-RPC error
// -32602, and no answer ever holds bytes from outside a skill.
func TestBadURIs(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	cs := connect(t, s, nil, nil)
	for _, uri := range []string{
		"skill://alpha/../beta/SKILL.md",
		"skill://alpha/references/../../../outside/secret.txt",
		"skill://alpha/%2e%2e/%2e%2e/outside/secret.txt",
		"skill://alpha/%2E%2E/SKILL.md",
		"skill://alpha/references%2F..%2F..%2F..%2Foutside%2Fsecret.txt",
		"skill://alpha/references/..%5C..%5Csecret.txt",
		"skill:///etc/passwd",
		"skill://alpha//etc/passwd",
		"skill://alpha/",
		"skill://alpha/./SKILL.md",
		"file:///etc/passwd",
		"file://" + filepath.ToSlash(filepath.Join(ws, "outside", "secret.txt")),
		"/etc/passwd",
		filepath.Join(ws, "outside", "secret.txt"),
		"https://example.com/SKILL.md",
		"skill://alpha/references/secret.md", // symlink out of the skill folder
		"skill://alpha/references",           // a folder
		"skill://alpha",                      // the skill root
		"skill://nope/SKILL.md",
		"skill://alpha/missing.md",
		"skill://alpha/docs/a b#c.md", // not the canonical spelling
		"skill://alpha/docs/a%20b%23c.md?x=1",
		"skill://alpha/SKILL.md#top",
		"skill://ALPHA/SKILL.md",
		"skill://alpha/references/guide.md%00",
		"skill://alpha/references/guide%2emd",
		"skill://..%2F../SKILL.md",
		"SKILL://alpha/SKILL.md",
		"",
	} {
		t.Run(uri, func(t *testing.T) {
			res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
			wantCode(t, err, jsonrpc.CodeInvalidParams)
			if res != nil {
				b, _ := json.Marshal(res)
				t.Errorf("got contents %s", b)
			}
		})
	}
	// The server is still there.
	if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://alpha/SKILL.md"}); err != nil {
		t.Fatal(err)
	}
}

func TestSkillsList(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	var lb logBuffer
	s := newServer(t, ws, &Options{Logger: lb.logger()})
	cs := connect(t, s, nil, nil)
	entries := allSkills(t, cs)
	var uris []string
	for _, e := range entries {
		uris = append(uris, e.URI)
	}
	// colon needed a YAML repair and under_score breaks the spec's name
	// rule: they stay out of skills/list, logged.
	want := []string{"skill://alpha/SKILL.md", "skill://beta/SKILL.md", "skill://crlf/SKILL.md", "skill://flat-one/SKILL.md"}
	if diff := cmp.Diff(want, uris); diff != "" {
		t.Fatalf("skills/list (-want +got):\n%s", diff)
	}
	for _, name := range []string{"colon", "under_score"} {
		if !strings.Contains(lb.String(), "skill="+name) || !strings.Contains(lb.String(), string(codeExtensionExcluded)) {
			t.Errorf("no extension-excluded diagnostic logged for %s:\n%s", name, lb.String())
		}
	}
	if !slices.ContainsFunc(s.Diagnostics(), func(d skill.Diagnostic) bool {
		return d.Code == codeExtensionExcluded && d.Skill == "colon" && strings.Contains(d.Message, "repair")
	}) {
		t.Errorf("Diagnostics() has no extension-excluded for colon: %v", s.Diagnostics())
	}

	alpha := entries[0]
	wantFM := `{"name":"alpha","description":"Alpha does things with files.","license":"MIT","metadata":{"version":"1.10","owner":"team"},"allowed-tools":"Read Grep"}`
	if string(alpha.Frontmatter) != wantFM {
		t.Errorf("frontmatter\n got %s\nwant %s", alpha.Frontmatter, wantFM)
	}
	var manifest []string
	for _, r := range alpha.Resources.Files {
		manifest = append(manifest, r.URI)
	}
	wantManifest := []string{"skill://alpha/SKILL.md", "skill://alpha/assets/empty.txt", "skill://alpha/assets/logo.png",
		"skill://alpha/docs/a%20b%23c.md", "skill://alpha/references/guide.md", "skill://alpha/scripts/run.sh"}
	if hasSymlinks() {
		wantManifest = append(wantManifest[:5], append([]string{"skill://alpha/references/link.md"}, wantManifest[5:]...)...)
	}
	if diff := cmp.Diff(wantManifest, manifest); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
	beta := entries[1]
	var fm map[string]any
	if err := json.Unmarshal(beta.Frontmatter, &fm); err != nil {
		t.Fatal(err)
	}
	if fm["disable-model-invocation"] != true || fm["argument-hint"] != "the branch to clean" {
		t.Errorf("beta frontmatter lost keys: %s", beta.Frontmatter)
	}
}

// TestDigests checks every manifest entry against the file on disk: the
// size, the digest against the real sha256sum where the system has it
// (else crypto/sha256), and the bytes resources/read returns, hashed as a
// host would hash them.
func TestDigests(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	cs := connect(t, s, nil, nil)
	sha256sum, _ := exec.LookPath("sha256sum")
	if sha256sum == "" {
		t.Log("sha256sum not found; digests are checked with crypto/sha256 only")
	}
	n := 0
	for _, e := range allSkills(t, cs) {
		for _, r := range e.Resources.Files {
			n++
			path := diskPath(ws, r.URI)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if r.Size != int64(len(data)) {
				t.Errorf("%s: size %d, file has %d bytes", r.URI, r.Size, len(data))
			}
			want := "sha256:" + sum(data)
			if sha256sum != "" {
				out, err := exec.Command(sha256sum, path).Output()
				if err != nil {
					t.Fatal(err)
				}
				want = "sha256:" + strings.Fields(string(out))[0]
			}
			if r.Digest != want {
				t.Errorf("%s: digest %s, sha256sum says %s", r.URI, r.Digest, want)
			}
			res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: r.URI})
			if err != nil {
				t.Fatal(err)
			}
			served := res.Contents[0].Blob
			if res.Contents[0].Text != "" {
				served = []byte(res.Contents[0].Text)
			}
			if got := "sha256:" + sum(served); got != r.Digest || int64(len(served)) != r.Size {
				t.Errorf("%s: served bytes hash to %s (%d bytes), manifest says %s (%d)", r.URI, got, len(served), r.Digest, r.Size)
			}
		}
	}
	if n < 8 {
		t.Fatalf("only %d manifest entries checked", n)
	}
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestGoldenDigests serves the worked example of the extension's overview
// page (its two file texts) and expects its published digests and sizes
// (docs/mcp.md#skills-extension).
func TestGoldenDigests(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"skills/code-review/SKILL.md":                "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n",
		"skills/code-review/references/checklist.md": "# Review checklist\n\nCheck correctness, tests, and compatibility.\n",
	})
	cs := connect(t, newServer(t, ws, nil), nil, nil)
	got := map[string]skillsext.SkillResource{}
	for _, e := range allSkills(t, cs) {
		for _, r := range e.Resources.Files {
			got[r.URI] = r
		}
	}
	want := map[string]skillsext.SkillResource{
		"skill://code-review/SKILL.md":                {URI: "skill://code-review/SKILL.md", Size: 149, Digest: "sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160"},
		"skill://code-review/references/checklist.md": {URI: "skill://code-review/references/checklist.md", Size: 65, Digest: "sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
}

func TestSkillsListPagination(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	files := map[string]string{}
	for i := range 7 {
		name := fmt.Sprintf("s%d", i)
		files["skills/"+name+"/SKILL.md"] = "---\nname: " + name + "\ndescription: Skill " + name + ".\n---\nBody.\n"
	}
	writeTree(t, ws, files)
	s := newServer(t, ws, &Options{PageSize: 3})
	cs := connect(t, s, nil, nil)
	var pages [][]string
	cursor := ""
	for {
		res, err := listSkills(t.Context(), cs, cursor)
		if err != nil {
			t.Fatal(err)
		}
		var page []string
		for _, e := range res.Skills {
			page = append(page, strings.TrimPrefix(strings.TrimSuffix(e.URI, "/SKILL.md"), "skill://"))
		}
		pages = append(pages, page)
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	want := [][]string{{"s0", "s1", "s2"}, {"s3", "s4", "s5"}, {"s6"}}
	if diff := cmp.Diff(want, pages); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"not-a-cursor!", "AAAA", encodeCursor("")[:2], "eyJvZmZzZXQiOjF9"} {
		_, err := listSkills(t.Context(), cs, bad)
		wantCode(t, err, jsonrpc.CodeInvalidParams)
	}
}

func TestSkillsGet(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	cs := connect(t, s, nil, nil)
	res, err := getSkill(t.Context(), cs, "skill://alpha/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	list := allSkills(t, cs)
	if diff := cmp.Diff(list[0], res.Skill, cmpopts.IgnoreUnexported(skillsext.SkillEntry{})); diff != "" {
		t.Errorf("skills/get differs from the skills/list entry (-list +get):\n%s", diff)
	}
	for _, tt := range []struct{ uri, msg string }{
		{"skill://nope/SKILL.md", "no skill"},
		{"skill://alpha/references/guide.md", "not a skill"},
		{"skill://alpha", "not a skill"},
		{"skill://colon/SKILL.md", "not served through the Skills Extension"},
		{"skill://alpha/../beta/SKILL.md", "invalid skill URI"},
		{"file:///etc/passwd", "unknown scheme"},
		{"", "needs the uri"},
	} {
		_, err := getSkill(t.Context(), cs, tt.uri)
		wantCode(t, err, jsonrpc.CodeInvalidParams)
		if !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("skills/get %q: %v, want it to say %q", tt.uri, err, tt.msg)
		}
	}
}

// TestCacheFields: resultType, ttlMs and cacheScope go out on protocol
// 2026-07-28 only.
func TestCacheFields(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), &Options{CacheTTL: 90_000_000_000})
	for _, tt := range []struct {
		version string
		want    bool
	}{{legacy, false}, {"2025-06-18", false}, {skillsext.ProtocolCacheable, true}} {
		t.Run(tt.version, func(t *testing.T) {
			cs := connect(t, s, nil, &mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			l, err := listSkills(t.Context(), cs, "")
			if err != nil {
				t.Fatal(err)
			}
			g, err := getSkill(t.Context(), cs, "skill://alpha/SKILL.md")
			if err != nil {
				t.Fatal(err)
			}
			d, err := readDir(t.Context(), cs, "skill://alpha", "")
			if err != nil {
				t.Fatal(err)
			}
			type fields struct {
				ResultType, CacheScope string
				TTL                    int
				HasTTL                 bool
			}
			of := func(rt string, ttl *int, scope string) fields {
				f := fields{ResultType: rt, CacheScope: scope, HasTTL: ttl != nil}
				if ttl != nil {
					f.TTL = *ttl
				}
				return f
			}
			want := fields{}
			if tt.want {
				want = fields{ResultType: "complete", CacheScope: "public", TTL: 90_000, HasTTL: true}
			}
			for name, got := range map[string]fields{
				"skills/list": of(l.ResultType, l.TTLMs, l.CacheScope),
				"skills/get":  of(g.ResultType, g.TTLMs, g.CacheScope),
			} {
				if got != want {
					t.Errorf("%s: %+v, want %+v", name, got, want)
				}
			}
			if wantRT := want.ResultType; d.ResultType != wantRT {
				t.Errorf("resources/directory/read resultType %q, want %q", d.ResultType, wantRT)
			}
		})
	}
}

func TestReadDirectory(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	cs := connect(t, s, nil, nil)
	type child struct{ URI, Name, MIME string }
	list := func(uri string) []child {
		t.Helper()
		res, err := readDir(t.Context(), cs, uri, "")
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		var out []child
		for _, r := range res.Resources {
			out = append(out, child{r.URI, r.Name, r.MIMEType})
		}
		return out
	}
	root := []child{
		{"skill://alpha/SKILL.md", "SKILL.md", "text/markdown"},
		{"skill://alpha/assets", "assets", mIMEDirectory},
		{"skill://alpha/docs", "docs", mIMEDirectory},
		{"skill://alpha/references", "references", mIMEDirectory},
		{"skill://alpha/scripts", "scripts", mIMEDirectory},
	}
	if diff := cmp.Diff(root, list("skill://alpha")); diff != "" {
		t.Errorf("skill://alpha (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(root, list("skill://alpha/")); diff != "" {
		t.Errorf("skill://alpha/ (-want +got):\n%s", diff)
	}
	assets := []child{
		{"skill://alpha/assets/empty.txt", "empty.txt", "text/plain"},
		{"skill://alpha/assets/logo.png", "logo.png", "image/png"},
	}
	if diff := cmp.Diff(assets, list("skill://alpha/assets")); diff != "" {
		t.Errorf("skill://alpha/assets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]child{{"skill://colon/SKILL.md", "SKILL.md", "text/markdown"}}, list("skill://colon")); diff != "" {
		t.Errorf("a skill outside skills/list still has its directory (-want +got):\n%s", diff)
	}
	for _, tt := range []struct{ uri, msg string }{
		{"skill://alpha/SKILL.md", "is not a directory resource"},
		{"skill://alpha/references/guide.md", "is not a directory resource"},
		{"skill://alpha/nothere", "not a directory"},
		{"skill://nope", "no skill"},
		{"skill://alpha/../beta", "invalid skill URI"},
		{"skill://alpha/%2e%2e", "invalid skill URI"},
		{"file:///etc", "unknown scheme"},
		{"", "needs the uri"},
	} {
		_, err := readDir(t.Context(), cs, tt.uri, "")
		wantCode(t, err, jsonrpc.CodeInvalidParams)
		if !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%q: %v, want it to say %q", tt.uri, err, tt.msg)
		}
	}
	_, err := readDir(t.Context(), cs, "skill://alpha", "bogus")
	wantCode(t, err, jsonrpc.CodeInvalidParams)
}

func TestReadDirectoryPagination(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	files := map[string]string{"skills/many/SKILL.md": "---\nname: many\ndescription: Many files.\n---\nBody.\n"}
	for i := range 12 {
		files[fmt.Sprintf("skills/many/refs/f%02d.md", i)] = fmt.Sprintf("file %d\n", i)
	}
	writeTree(t, ws, files)
	cs := connect(t, newServer(t, ws, &Options{PageSize: 1}), nil, nil) // 5 children per page
	var got []string
	pages := 0
	cursor := ""
	for {
		res, err := readDir(t.Context(), cs, "skill://many/refs", cursor)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range res.Resources {
			got = append(got, strings.TrimPrefix(r.URI, "skill://many/refs/"))
		}
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	var want []string
	for i := range 12 {
		want = append(want, fmt.Sprintf("f%02d.md", i))
	}
	if diff := cmp.Diff(want, got); diff != "" || pages != 3 {
		t.Errorf("%d pages (want 3); children (-want +got):\n%s", pages, diff)
	}
}

func TestPrompts(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	cs := connect(t, s, nil, nil)
	var names []string
	prompts := map[string]*mcp.Prompt{}
	for p, err := range cs.Prompts(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, p.Name)
		prompts[p.Name] = p
	}
	// One per served skill, the hidden beta included.
	if diff := cmp.Diff([]string{"alpha", "beta", "colon", "crlf", "flat-one", "under_score"}, names); diff != "" {
		t.Fatalf("prompts (-want +got):\n%s", diff)
	}
	beta := prompts["beta"]
	if !strings.Contains(beta.Description, "Beta is only invoked by the user.") || len(beta.Arguments) != 1 ||
		beta.Arguments[0].Name != promptArgument || beta.Arguments[0].Description != "the branch to clean" || beta.Arguments[0].Required {
		b, _ := json.Marshal(beta)
		t.Errorf("beta prompt %s", b)
	}
	res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "beta", Arguments: map[string]string{promptArgument: "feature/x"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
		t.Fatalf("messages %+v", res.Messages)
	}
	text := res.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{"Clean the branch.", "skill://beta/SKILL.md", "Request: feature/x"} {
		if !strings.Contains(text, want) {
			t.Errorf("prompt text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "name: beta") {
		t.Errorf("prompt text holds the frontmatter:\n%s", text)
	}
	res, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	text = res.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{"Read [the guide](references/guide.md) first.", "skill://alpha/references/guide.md", "skill://alpha/"} {
		if !strings.Contains(text, want) {
			t.Errorf("alpha prompt text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Request:") {
		t.Errorf("a request line without arguments:\n%s", text)
	}
	_, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "nope"})
	if err == nil {
		t.Error("unknown prompt: no error")
	}
}

// TestLimits: a skill over the extension's 512-file limit is reported and
// still listed; a file over the per-file limit is not served and takes its
// skill out of skills/list, since the manifest would be incomplete.
func TestLimits(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	files := map[string]string{
		"skills/big/SKILL.md":   "---\nname: big\ndescription: Many files.\n---\nBody.\n",
		"skills/huge/SKILL.md":  "---\nname: huge\ndescription: One large file.\n---\nBody.\n",
		"skills/huge/data.bin":  strings.Repeat("x", 2048),
		"skills/small/SKILL.md": "---\nname: small\ndescription: Small.\n---\nBody.\n",
	}
	for i := range skillsext.MaxSkillFiles {
		files[fmt.Sprintf("skills/big/f/%03d.txt", i)] = "x\n"
	}
	writeTree(t, ws, files)
	s := newServer(t, ws, &Options{MaxFileBytes: 1024})
	codes := map[string][]skill.Code{}
	for _, d := range s.Diagnostics() {
		codes[d.Skill] = append(codes[d.Skill], d.Code)
	}
	if !slices.Contains(codes["big"], codeExtensionLimit) {
		t.Errorf("big: no extension-limit diagnostic: %v", codes)
	}
	if !slices.Contains(codes["huge"], codeFileNotServed) || !slices.Contains(codes["huge"], codeExtensionExcluded) {
		t.Errorf("huge: want file-not-served and extension-excluded: %v", codes)
	}
	cs := connect(t, s, nil, nil)
	var uris []string
	for _, e := range allSkills(t, cs) {
		uris = append(uris, e.URI)
		if e.URI == "skill://big/SKILL.md" && len(e.Resources.Files) != skillsext.MaxSkillFiles+1 {
			t.Errorf("big: %d manifest entries, want %d", len(e.Resources.Files), skillsext.MaxSkillFiles+1)
		}
	}
	if diff := cmp.Diff([]string{"skill://big/SKILL.md", "skill://small/SKILL.md"}, uris); diff != "" {
		t.Errorf("skills/list (-want +got):\n%s", diff)
	}
	_, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://huge/data.bin"})
	wantCode(t, err, codeTooLarge) // too large, not "no such file"
	if !strings.Contains(err.Error(), "too large to serve") {
		t.Errorf("reading a file over the limit: %v", err)
	}
	if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://huge/SKILL.md"}); err != nil {
		t.Errorf("huge's SKILL.md is not served: %v", err)
	}
}

// TestBackslashFileName checks that a file whose name holds a backslash,
// which no skill:// URI can name, keeps its skill out of skills/list (its
// manifest could not be read back) with a diagnostic, while the skill's
// other files are still served.
func TestBackslashFileName(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("a backslash is a separator on Windows")
	}
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"skills/odd/SKILL.md":   "---\nname: odd\ndescription: An odd file name.\n---\nBody.\n",
		"skills/odd/a\\b.txt":   "odd",
		"skills/odd/normal.txt": "normal",
	})
	s := newServer(t, ws, nil)
	cs := connect(t, s, nil, nil)
	res, err := listSkills(t.Context(), cs, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skills) != 0 {
		t.Errorf("skills/list lists a skill whose manifest cannot be read back: %+v", res.Skills)
	}
	if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://odd/normal.txt"}); err != nil {
		t.Errorf("the skill's other files are not served: %v", err)
	}
	found := false
	for _, d := range s.Diagnostics() {
		if strings.Contains(d.Message, "backslash") {
			found = true
		}
	}
	if !found {
		t.Errorf("no diagnostic names the backslash: %v", s.Diagnostics())
	}
}
