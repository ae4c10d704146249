package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/skillet-go/skillet/internal/testcorpus"
)

// TestIndexedCommands: show, search, prompt and tool-schema write the
// persistent index into the user cache folder and print the same bytes
// from it as without it; --no-cache writes none; list never uses it.
func TestIndexedCommands(t *testing.T) {
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{
		"skills/alpha/SKILL.md":              "---\nname: alpha\ndescription: Alpha reviews release notes.\n---\n# Alpha\n\nDo it.\n",
		"skills/beta/SKILL.md":               "---\nname: beta\ndescription: Beta cuts a release tag.\nwhen-to-use: the user asks to tag\n---\nTag it.\n",
		"skills/group/gamma/SKILL.md":        "---\nname: gamma\ndescription: Gamma has a bundled file.\n---\nSee references/x.md.\n",
		"skills/group/gamma/references/x.md": "x\n",
		// Files that do not load (show's notes name them), a hidden
		// skill and one whose name is not its folder's.
		"skills/broken/SKILL.md":   "---\nname: broken\n---\nNo description.\n",
		"skills/unparsed/SKILL.md": "---\nname: [unclosed\ndescription: x\n---\nBody.\n",
		"skills/quiet/SKILL.md":    "---\nname: quiet\ndescription: Quiet is hidden.\ndisable-model-invocation: true\n---\nQ.\n",
		"skills/folder/SKILL.md":   "---\nname: other-name\ndescription: Named unlike its folder.\n---\nO.\n",
	})
	old := time.Now().Add(-time.Hour)
	var paths []string
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error { paths = append(paths, p); return err })
	for i := len(paths) - 1; i >= 0; i-- {
		if err := os.Chtimes(paths[i], old, old); err != nil {
			t.Fatal(err)
		}
	}
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	run := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		code := Run(context.Background(), append(args, "-w", ws, "--no-user"), &IO{Out: &out, Err: &errb})
		return fmt.Sprintf("exit %d\n", code) + out.String() + "\n--stderr--\n" + errb.String()
	}
	indexes := func() int {
		files, _ := filepath.Glob(filepath.Join(cache, "skillet", "index", "*.idx"))
		return len(files)
	}
	run("list")
	if n := indexes(); n != 0 {
		t.Fatalf("list wrote %d index files; it always walks", n)
	}
	for _, args := range [][]string{
		// show over the index reads a listing narrowed to the name
		// when it finds it, the whole listing when it does not (the
		// nearest names).
		{"show", "gamma"}, {"show", "GAMMA"}, {"show", "gamma", "--json"}, {"show", "gamma", "--file", "references/x.md"},
		{"show", "gama"}, {"show", "gamma", "--file", "nonesuch.md"}, {"search", "release"}, {"prompt"}, {"prompt", "--format", "json"}, {"tool-schema"},
		// Names no skill has: answered from the listing's names, with
		// the notes about the files that would be the skill.
		{"show", "broken"}, {"show", " Broken "}, {"show", "unparsed", "--json"}, {"show", "UNPARSED"}, {"show", "folder"},
		{"show", "quiet"}, {"show", "quit"}, {"show", "other-nam"}, {"-q", "show", "broken"}, {"tool-schema", "--api", "gemini"},
	} {
		plain := run(append([]string{"--no-cache"}, args...)...)
		if n := indexes(); n != 0 {
			t.Fatalf("%v --no-cache wrote %d index files", args, n)
		}
		first := run(args...)
		if n := indexes(); n != 1 {
			t.Fatalf("%v wrote %d index files, want 1", args, n)
		}
		second := run(args...) // answered from the index
		if first != plain || second != plain {
			t.Errorf("%v: output with the index differs from --no-cache:\nplain:\n%s\nfirst:\n%s\nsecond:\n%s", args, plain, first, second)
		}
		os.RemoveAll(filepath.Join(cache, "skillet"))
	}
}

// TestIndexedFirstRunsCorpus: the first runs of prompt, search, show and
// tool-schema (no index: they list as Each does and write the index meanwhile, keeping
// what their answer needs) print, for each flag combination, the same
// bytes as --no-cache and as the run answered from the index they wrote,
// on the corpus folders of published skills (skipped when absent).
func TestIndexedFirstRunsCorpus(t *testing.T) {
	corpus := testcorpus.Dir(t)
	tmpl := filepath.Join(t.TempDir(), "block.tmpl")
	if err := os.WriteFile(tmpl, []byte("{{.Preamble}}\n{{range .Skills}}{{.Name}}: {{.Description}} [{{.Location}}]{{if .NameOnly}} (name only){{end}}\n{{end}}{{.LeftOut}} {{.Note}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	combos := [][]string{
		{"prompt"}, {"prompt", "--format", "markdown"}, {"prompt", "--format", "json"}, {"prompt", "--budget-chars", "3000"},
		{"prompt", "--budget-chars", "0"}, {"prompt", "--provider", "ollama"}, {"prompt", "--template", tmpl}, {"-q", "prompt"},
		{"search", "pdf"}, {"search", "release", "notes", "--json"}, {"search", "review", "code", "-n", "0"},
		{"search", "frontend-design", "-n", "1", "--json"}, {"search", "nonesuch"}, {"search", "the"},
		{"show", "canvas-desing"}, {"show", "frontend-desing", "--json"}, {"show", "nonesuch"}, {"show", "react", "--file", "x.md"},
		{"__complete", "show", "can"}, {"__complete", "show", ""}, {"__complete", "show", "zzz"},
		{"tool-schema"}, {"tool-schema", "--api", "anthropic"}, {"tool-schema", "--api", "openai-responses"},
		{"show", "CANVAS-DESIGN"}, {"show", "canvas-design", "--json"}, {"show", "canvas-design", "--file", "nonesuch.md"}, {"-q", "show", "skill"},
	}
	if testing.Short() { // the first combination of each command
		seen := map[string]bool{}
		combos = slices.DeleteFunc(combos, func(args []string) bool {
			defer func() { seen[args[0]] = true }()
			return seen[args[0]]
		})
	}
	for _, c := range []struct {
		name  string
		roots []string
	}{
		{"corpus", testcorpus.Roots(corpus)},
		{"corpus-community", []string{filepath.Join(filepath.Dir(corpus), "corpus-community")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if fi, err := os.Stat(c.roots[0]); err != nil || !fi.IsDir() {
				t.Skipf("%s not found beside the corpus (%s)", c.name, c.roots[0])
			}
			cache := t.TempDir()
			t.Setenv("XDG_CACHE_HOME", cache)
			rootArgs := []string{"-w", t.TempDir(), "--no-user"}
			for _, r := range c.roots {
				rootArgs = append(rootArgs, "--root", r)
			}
			run := func(args ...string) string {
				t.Helper()
				var out, errb bytes.Buffer
				all := append(slices.Clip(rootArgs), args...)
				if args[0] == "__complete" { // its own arguments first
					all = append(append(slices.Clone(args[:2]), rootArgs...), args[2:]...)
				}
				code := Run(context.Background(), all, &IO{Out: &out, Err: &errb})
				return fmt.Sprintf("exit %d\n", code) + out.String() + "\n--stderr--\n" + errb.String()
			}
			for _, args := range combos {
				os.RemoveAll(filepath.Join(cache, "skillet"))
				plain := run(append([]string{"--no-cache"}, args...)...)
				first := run(args...)
				files, _ := filepath.Glob(filepath.Join(cache, "skillet", "index", "*.idx"))
				want := 1
				if slices.Contains(args, "ollama") {
					want = 0 // no skills layer: no listing
				}
				if len(files) != want {
					t.Fatalf("%v wrote %d index files, want %d", args, len(files), want)
				}
				second := run(args...)
				if first != plain || second != plain {
					t.Errorf("%v: output with the index differs from --no-cache:\nplain:\n%s\nfirst:\n%s\nsecond:\n%s", args, plain, first, second)
				}
			}
		})
	}
}
