package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/mcpserver/skillsext"
	"github.com/skillet-go/skillet/skill"
)

// notes collects the list_changed notifications a client receives.
type notes struct {
	resources, prompts, tools, updated chan string
}

func newNotes() *notes {
	return &notes{make(chan string, 1000), make(chan string, 1000), make(chan string, 1000), make(chan string, 1000)}
}

func (n *notes) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { n.resources <- "changed" },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { n.prompts <- "changed" },
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { n.tools <- "changed" },
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			n.updated <- r.Params.URI
		},
	}
}

// drain empties every channel.
func (n *notes) drain() {
	for _, ch := range []chan string{n.resources, n.prompts, n.tools, n.updated} {
		for len(ch) > 0 {
			<-ch
		}
	}
}

// await waits for one message on ch; the bound only keeps a broken test
// from hanging.
func await(t *testing.T, ch chan string, what string) string {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("no %s within 20s", what)
		return ""
	}
}

// eventually waits until ok holds, checking again after each
// resources/list_changed: a reload may catch a file half written (as
// os.WriteFile truncates, then writes), and the next one serves it whole.
func eventually(t *testing.T, n *notes, what string, ok func() bool) {
	t.Helper()
	for range 50 {
		if ok() {
			return
		}
		select {
		case <-n.resources:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: still not served after 20s", what)
		}
	}
	t.Fatalf("%s: not served after 50 reloads", what)
}

// watch runs s.Watch until the test ends.
func watch(t *testing.T, s *Server) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Watch(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Watch: %v", err)
		}
	})
}

func skillMD(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n" + body
}

func entryURIs(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	var uris []string
	for _, e := range allSkills(t, cs) {
		uris = append(uris, e.URI)
	}
	return uris
}

func promptNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	var names []string
	for p, err := range cs.Prompts(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, p.Name)
	}
	return names
}

func readText(t *testing.T, cs *mcp.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("%s: %v", uri, err)
	}
	return res.Contents[0].Text
}

// TestReload adds, edits and removes a skill on disk while a client is
// connected; the client hears of each change and sees it, on both
// protocol eras, through file notifications and through polling.
func TestReload(t *testing.T) {
	t.Parallel() // waits on the watcher's timers more than it computes
	for _, tt := range []struct {
		name    string
		version string
		poll    bool
	}{
		{"notify/" + legacy, legacy, false},
		{"notify/" + skillsext.ProtocolCacheable, skillsext.ProtocolCacheable, false},
		{"poll/" + legacy, legacy, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			dir := filepath.Join(ws, "skills")
			writeTree(t, ws, map[string]string{"skills/one/SKILL.md": skillMD("one", "The first skill.", "One.\n")})
			// ttlMs 0: on 2026-07-28 the SDK's client caches reads for
			// ttlMs, and this test reads the same URI before and after.
			s := newServer(t, ws, &Options{Debounce: 30 * time.Millisecond, Poll: tt.poll, PollInterval: 50 * time.Millisecond, CacheTTL: -1})
			n := newNotes()
			cs := connect(t, s, n.options(), &mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			watch(t, s)

			// Add.
			writeTree(t, dir, map[string]string{"two/SKILL.md": skillMD("two", "The second skill.", "Two.\n")})
			await(t, n.resources, "resources/list_changed after adding a skill")
			await(t, n.prompts, "prompts/list_changed after adding a skill")
			await(t, n.tools, "tools/list_changed after adding a skill")
			if got := toolEnum(t, listTools(t, cs)[0]); !slices.Equal(got, []string{"one", "two"}) {
				t.Fatalf("after adding: the tool's name enum is %v", got)
			}
			if got := entryURIs(t, cs); !slices.Equal(got, []string{"skill://one/SKILL.md", "skill://two/SKILL.md"}) {
				t.Fatalf("after adding: skills/list %v", got)
			}
			if got := promptNames(t, cs); !slices.Equal(got, []string{"one", "two"}) {
				t.Fatalf("after adding: prompts %v", got)
			}
			before, err := getSkill(t.Context(), cs, "skill://two/SKILL.md")
			if err != nil {
				t.Fatal(err)
			}

			// Edit, with a subscription to the edited file.
			if err := cs.Subscribe(t.Context(), &mcp.SubscribeParams{URI: "skill://two/SKILL.md"}); err != nil {
				t.Fatal(err)
			}
			n.drain()
			writeTree(t, dir, map[string]string{"two/SKILL.md": skillMD("two", "The second skill, edited.", "Two, edited.\n")})
			await(t, n.resources, "resources/list_changed after an edit")
			if uri := await(t, n.updated, "resources/updated after an edit"); uri != "skill://two/SKILL.md" {
				t.Errorf("resources/updated for %s", uri)
			}
			after, err := getSkill(t.Context(), cs, "skill://two/SKILL.md")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(after.Skill.Frontmatter), "edited") || after.Skill.Resources.Files[0].Digest == before.Skill.Resources.Files[0].Digest {
				t.Fatalf("after editing: entry %s %+v", after.Skill.Frontmatter, after.Skill.Resources)
			}
			eventually(t, n, "SKILL.md after the edit", func() bool {
				return strings.Contains(readText(t, cs, "skill://two/SKILL.md"), "Two, edited.")
			})

			// A file in a folder created after the watch started.
			n.drain()
			writeTree(t, dir, map[string]string{"two/references/new/deep.md": "deep\n"})
			await(t, n.resources, "resources/list_changed after adding a file in a new folder")
			eventually(t, n, "the new file", func() bool {
				res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://two/references/new/deep.md"})
				return err == nil && res.Contents[0].Text == "deep\n"
			})
			writeTree(t, dir, map[string]string{"two/references/new/deep.md": "deeper\n"})
			await(t, n.resources, "resources/list_changed after editing a file in a new folder")
			eventually(t, n, "the edited file", func() bool {
				return readText(t, cs, "skill://two/references/new/deep.md") == "deeper\n"
			})

			// Remove.
			n.drain()
			if err := os.RemoveAll(filepath.Join(dir, "two")); err != nil {
				t.Fatal(err)
			}
			await(t, n.resources, "resources/list_changed after removing a skill")
			await(t, n.prompts, "prompts/list_changed after removing a skill")
			await(t, n.tools, "tools/list_changed after removing a skill")
			if got := toolEnum(t, listTools(t, cs)[0]); !slices.Equal(got, []string{"one"}) {
				t.Fatalf("after removing: the tool's name enum is %v", got)
			}
			if got := entryURIs(t, cs); !slices.Equal(got, []string{"skill://one/SKILL.md"}) {
				t.Fatalf("after removing: skills/list %v", got)
			}
			if got := promptNames(t, cs); !slices.Equal(got, []string{"one"}) {
				t.Fatalf("after removing: prompts %v", got)
			}
			_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://two/SKILL.md"})
			wantCode(t, err, jsonrpc.CodeInvalidParams)
			_, err = getSkill(t.Context(), cs, "skill://two/SKILL.md")
			wantCode(t, err, jsonrpc.CodeInvalidParams)
		})
	}
}

// TestReloadHalfWritten: a skill file that stops parsing (as while an
// editor writes it) leaves the last good version served, manifest and
// bytes in step, until it parses again.
func TestReloadHalfWritten(t *testing.T) {
	t.Parallel() // waits on the watcher's timers more than it computes
	ws := t.TempDir()
	good := skillMD("one", "The first skill.", "One.\n")
	writeTree(t, ws, map[string]string{"skills/one/SKILL.md": good, "skills/one/notes.md": "notes\n"})
	s := newServer(t, ws, &Options{CacheTTL: -1}) // no client-side caching of reads
	n := newNotes()
	cs := connect(t, s, n.options(), nil)
	entry, err := getSkill(t.Context(), cs, "skill://one/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	instructions := s.snap.Load().instructions

	for _, half := range []string{
		"---\nname: one\ndescription: [The fir",           // cut inside a flow sequence: YAML error
		"---\nname: one\ndescription: The first skill.\n", // no closing fence yet
		"\xff\xfe---\nname: one\n",                        // not UTF-8
	} {
		writeTree(t, ws, map[string]string{"skills/one/SKILL.md": half})
		// Everything, the load tool included, answers from the snapshot:
		// the last good version. No change is reported, so the SDK's lists
		// are not touched and no list_changed can follow: Reload only
		// updates them (and so makes the SDK notify) when it reports one.
		if changed, err := s.Reload(t.Context()); err != nil || changed {
			t.Fatalf("%q: Reload = %v, %v; want no change", half, changed, err)
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "use_skill", Arguments: map[string]any{"name": "one"}})
		if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "One.") {
			t.Errorf("%q: the load tool does not serve the kept version: %v %+v", half, err, res)
		}
		if got := s.snap.Load().instructions; got != instructions {
			t.Errorf("%q: instructions changed to %q", half, got)
		}
		if !slices.ContainsFunc(s.Diagnostics(), func(d skill.Diagnostic) bool { return d.Code == codeReloadKept && d.Skill == "one" }) {
			t.Errorf("%q: no reload-kept diagnostic: %v", half, s.Diagnostics())
		}
		got, err := getSkill(t.Context(), cs, "skill://one/SKILL.md")
		if err != nil {
			t.Fatalf("%q: %v", half, err)
		}
		if string(got.Skill.Frontmatter) != string(entry.Skill.Frontmatter) || got.Skill.Resources.Files[0] != entry.Skill.Resources.Files[0] {
			t.Errorf("%q: entry changed to %s %+v", half, got.Skill.Frontmatter, got.Skill.Resources)
		}
		if text := readText(t, cs, "skill://one/SKILL.md"); text != good {
			t.Errorf("%q: SKILL.md reads %q, want the last good bytes", half, text)
		}
	}

	if len(n.resources) != 0 || len(n.prompts) != 0 || len(n.tools) != 0 {
		t.Errorf("list_changed while the skill was half written")
	}

	// Written in full: the new version is served.
	writeTree(t, ws, map[string]string{"skills/one/SKILL.md": skillMD("one", "Rewritten.", "New.\n")})
	if changed, err := s.Reload(t.Context()); err != nil || !changed {
		t.Fatalf("Reload = %v, %v; want a change", changed, err)
	}
	if text := readText(t, cs, "skill://one/SKILL.md"); !strings.Contains(text, "Rewritten.") {
		t.Errorf("SKILL.md reads %q", text)
	}
	if slices.ContainsFunc(s.Diagnostics(), func(d skill.Diagnostic) bool { return d.Code == codeReloadKept }) {
		t.Errorf("reload-kept remains: %v", s.Diagnostics())
	}
}

// TestReloadUnchanged: a reload with nothing changed on disk reports no
// change and sends no notification.
func TestReloadUnchanged(t *testing.T) {
	t.Parallel() // waits on the watcher's timers more than it computes
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	n := newNotes()
	connect(t, s, n.options(), &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	// A reload that reports no change has not touched the SDK's lists,
	// the only thing that makes the SDK send list_changed.
	for range 3 {
		if changed, err := s.Reload(t.Context()); err != nil || changed {
			t.Fatalf("Reload = %v, %v; want no change", changed, err)
		}
	}
	if len(n.resources) != 0 {
		t.Errorf("quiet reloads sent %d resources/list_changed", len(n.resources))
	}
	// A change after them is heard. (How many notifications it costs
	// depends on how the SDK's 10 ms batching falls on a loaded machine,
	// so only the first is awaited.)
	writeTree(t, ws, map[string]string{"skills/alpha/references/guide.md": "# Guide\n\nStep two.\n"})
	if changed, err := s.Reload(t.Context()); err != nil || !changed {
		t.Fatalf("Reload = %v, %v; want a change", changed, err)
	}
	await(t, n.resources, "resources/list_changed")
}

// settled waits until the watcher has finished its first reload pass (the
// one that catches what changed before its watches were set) and set its
// watches, so a change made after it can only be seen through a file
// notification. The bound only keeps a broken test from hanging.
func settled(t *testing.T, s *Server) {
	t.Helper()
	for {
		n, next := s.watchPasses.next()
		if n >= 1 {
			return
		}
		select {
		case <-next:
		case <-time.After(20 * time.Second):
			t.Fatal("the watcher's first reload did not finish within 20s")
		}
	}
}

// TestReloadSymlinkedRoot checks that a root reached through a symlink is
// watched where it leads.
func TestReloadSymlinkedRoot(t *testing.T) {
	t.Parallel() // waits on the watcher's timers more than it computes
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"real/one/SKILL.md": skillMD("one", "The first skill.", "One.\n")})
	if err := os.Symlink("real", filepath.Join(ws, "skills")); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, ws, &Options{Debounce: 50 * time.Millisecond, CacheTTL: -1})
	n := newNotes()
	cs := connect(t, s, n.options(), nil)
	watch(t, s)
	settled(t, s)
	writeTree(t, ws, map[string]string{"real/two/SKILL.md": skillMD("two", "The second skill.", "Two.\n")})
	eventually(t, n, "a skill added under the symlinked root", func() bool {
		return slices.Contains(promptNames(t, cs), "two")
	})
}

// TestReloadNoisyFolder checks that a folder written to without pause (a
// log file every 20 ms, less than the debounce) does not hold a reload back
// forever.
func TestReloadNoisyFolder(t *testing.T) {
	t.Parallel() // waits on the watcher's timers more than it computes
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"skills/one/SKILL.md": skillMD("one", "The first skill.", "One.\n")})
	s := newServer(t, ws, &Options{Debounce: 50 * time.Millisecond, CacheTTL: -1})
	n := newNotes()
	cs := connect(t, s, n.options(), nil)
	watch(t, s)
	settled(t, s)
	stop := make(chan struct{})
	done := make(chan struct{})
	noisy := make(chan struct{}) // closed once the noise holds the debounce back
	go func() {
		defer close(done)
		log := filepath.Join(ws, "skills", "one", "app.log")
		tick := time.NewTicker(20 * time.Millisecond) // the noise: faster than the debounce
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				os.WriteFile(log, []byte(strings.Repeat("x", i%100)), 0o644)
				if i == 4 {
					close(noisy)
				}
			}
		}
	}()
	defer func() { close(stop); <-done }()
	<-noisy
	writeTree(t, ws, map[string]string{"skills/one/SKILL.md": skillMD("one", "The first skill, edited.", "One.\n")})
	eventually(t, n, "an edit next to a file written without pause", func() bool {
		return strings.Contains(readText(t, cs, "skill://one/SKILL.md"), "edited")
	})
}
