// Package tree generates skill folders for benchmarks and robustness tests:
// N skills with realistic sizes, some in grouping folders, some with bundled
// files, and a share of broken skills of the kinds found in published
// skills. The same seed always gives the same tree, byte for byte.
package tree

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Options shape a generated tree. Zero values take the defaults noted.
type Options struct {
	// N is the number of skill folders to write.
	N int
	// Seed makes the tree reproducible (default 1).
	Seed uint64
	// BrokenPercent is the share of broken skills, in percent (default 3;
	// negative for none).
	BrokenPercent int
}

// Stats describe a generated tree.
type Stats struct {
	Skills        int   // skill files written (directory and flat form)
	Broken        int   // of which deliberately broken
	SkillBytes    int64 // total bytes of the skill files
	BundledFiles  int   // scripts/ and references/ files
	GroupedSkills int   // skills inside grouping folders
}

// Kinds of broken skills, after the corpus README: each is something
// published skills really do.
var brokenKinds = []string{
	"unquoted-colon",   // description: Use when: ... (repaired)
	"no-frontmatter",   // a Markdown file with a heading
	"crlf",             // Windows line endings (loads)
	"name-mismatch",    // name differs from the folder
	"uppercase-name",   // name: Some Skill (normalised)
	"unclosed",         // frontmatter never closed (a clean block of keys: loads)
	"bad-yaml",         // an unterminated quote (rejected)
	"nested-metadata",  // metadata with a nested map
	"empty-body",       // frontmatter and nothing else (loads with a warning)
	"flow-and-unknown", // flow style and unknown fields (loads)
}

var words = strings.Fields(`release deploy review debug test audit migrate format lint document
design plan triage refactor profile benchmark secure rotate archive index search render parse
validate publish package bundle sync backup restore monitor alert report analyse summarise
translate classify extract convert compress encrypt schedule notify onboard provision scale`)

// Generate writes a tree of skills under dir/skills and returns its stats.
// dir is created if needed; existing files with the same names are replaced.
func Generate(dir string, opts *Options) (Stats, error) {
	if opts == nil {
		opts = &Options{}
	}
	seed := opts.Seed
	if seed == 0 {
		seed = 1
	}
	broken := opts.BrokenPercent
	if broken == 0 {
		broken = 3
	}
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	var st Stats
	root := filepath.Join(dir, "skills")
	for i := range opts.N {
		name := fmt.Sprintf("%s-%s-%05d", words[r.IntN(len(words))], words[r.IntN(len(words))], i)
		// One skill in five sits in a grouping folder, one in ten two
		// levels deep.
		parent := root
		switch r.IntN(10) {
		case 0:
			parent = filepath.Join(root, fmt.Sprintf("team-%02d", r.IntN(20)), fmt.Sprintf("area-%02d", r.IntN(10)))
			st.GroupedSkills++
		case 1:
			parent = filepath.Join(root, fmt.Sprintf("team-%02d", r.IntN(20)))
			st.GroupedSkills++
		}
		kind := ""
		if broken > 0 && r.IntN(100) < broken {
			kind = brokenKinds[r.IntN(len(brokenKinds))]
			st.Broken++
		}
		skillDir := filepath.Join(parent, name)
		content := skillFile(r, name, kind)
		if err := write(filepath.Join(skillDir, "SKILL.md"), content); err != nil {
			return st, err
		}
		st.Skills++
		st.SkillBytes += int64(len(content))
		// Three skills in ten bundle scripts and references.
		if r.IntN(10) < 3 {
			n, err := bundled(r, skillDir)
			if err != nil {
				return st, err
			}
			st.BundledFiles += n
		}
	}
	return st, nil
}

func write(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

func sentence(r *rand.Rand, minWords, maxWords int) string {
	n := minWords + r.IntN(maxWords-minWords+1)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = words[r.IntN(len(words))]
	}
	s := strings.Join(parts, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// frontmatter returns 150-600 bytes of frontmatter fields (without fences).
func frontmatter(r *rand.Rand, name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\n", name)
	fmt.Fprintf(&b, "description: %s Use when the user asks to %s.\n", sentence(r, 6, 30), strings.ToLower(strings.TrimSuffix(sentence(r, 2, 8), ".")))
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "when-to-use: %s\n", sentence(r, 4, 12))
	}
	if r.IntN(3) == 0 {
		b.WriteString("license: Apache-2.0\n")
	}
	if r.IntN(3) == 0 {
		b.WriteString("allowed-tools: Read Bash(git:*) Bash(go test:*)\n")
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "metadata:\n  owner: team-%02d\n  version: \"1.%d\"\n", r.IntN(20), r.IntN(30))
	}
	return b.String()
}

// body returns a Markdown body: mostly 1-12 KB, one in fifty up to 60 KB.
func body(r *rand.Rand, name string) string {
	size := 1024 + r.IntN(11*1024)
	if r.IntN(50) == 0 {
		size = 12*1024 + r.IntN(48*1024)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", name, sentence(r, 8, 20))
	step := 1
	for b.Len() < size {
		switch r.IntN(6) {
		case 0:
			fmt.Fprintf(&b, "## %s\n\n", strings.TrimSuffix(sentence(r, 2, 5), "."))
		case 1:
			fmt.Fprintf(&b, "```sh\ngo test ./... -run %s\n```\n\n", words[r.IntN(len(words))])
		case 2:
			fmt.Fprintf(&b, "See [the guide](references/guide.md) for %s.\n\n", words[r.IntN(len(words))])
		default:
			fmt.Fprintf(&b, "%d. %s\n", step, sentence(r, 6, 24))
			step++
		}
	}
	return b.String()
}

func skillFile(r *rand.Rand, name, kind string) string {
	fm := frontmatter(r, name)
	bd := body(r, name)
	switch kind {
	case "unquoted-colon":
		fm = strings.Replace(fm, "Use when the user", "Use when: the user", 1)
	case "no-frontmatter":
		return bd
	case "crlf":
		return strings.ReplaceAll("---\n"+fm+"---\n\n"+bd, "\n", "\r\n")
	case "name-mismatch":
		fm = strings.Replace(fm, "name: "+name, "name: "+name+"-renamed", 1)
	case "uppercase-name":
		fm = strings.Replace(fm, "name: "+name, "name: "+strings.ToUpper(name[:1])+name[1:]+" Helper", 1)
	case "unclosed":
		return "---\n" + fm + "\n" + bd
	case "bad-yaml":
		fm = strings.Replace(fm, "description: ", "description: \"", 1)
	case "nested-metadata":
		if strings.Contains(fm, "metadata:\n") {
			fm = strings.Replace(fm, "metadata:\n", "metadata:\n  nested:\n    deep: [1, 2]\n", 1)
		} else {
			fm += "metadata:\n  nested:\n    deep: [1, 2]\n"
		}
	case "empty-body":
		return "---\n" + fm + "---\n"
	case "flow-and-unknown":
		fm += "tags: [alpha, beta]\nhomepage: https://example.com\n"
	}
	return "---\n" + fm + "---\n\n" + bd
}

func bundled(r *rand.Rand, dir string) (int, error) {
	n := 0
	for i := range 1 + r.IntN(3) {
		script := fmt.Sprintf("#!/usr/bin/env bash\nset -euo pipefail\necho step %d\n", i)
		if err := write(filepath.Join(dir, "scripts", fmt.Sprintf("step-%d.sh", i)), script); err != nil {
			return n, err
		}
		n++
	}
	ref := "# Guide\n\n" + strings.Repeat(sentence(r, 10, 20)+"\n", 10+r.IntN(100))
	if err := write(filepath.Join(dir, "references", "guide.md"), ref); err != nil {
		return n, err
	}
	return n + 1, nil
}
