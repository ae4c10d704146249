package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

var _ = skill.Register(skill.CodeInfo{Code: diagcode.BundledSymlink, Severity: skill.SeverityWarning,
	Summary: "a bundled file is a symlink to a target outside the skill folder; the load tool refuses to read it",
	Remedy:  "copy the target into the skill folder instead of linking to it",
	Source:  "docs/disclosure.md#load-tool, docs/discovery.md#boundaries",
	Help: "A file or folder inside the skill folder is a symbolic link whose target lies outside the folder. The load tool, skillet serve and hosts that check paths " +
		"read only files inside the skill folder, so the model is refused this file when the skill tells it to read it. " +
		"Copy the file into the skill folder (or build it there), or point the link at a file inside the folder."})

// Bounds of the walk of one skill folder for bundled symlinks.
const (
	maxBundleEntries = 4096
	maxBundleDepth   = 8
)

// checkBundle walks the folder of s (not for flat files, whose folder is a
// root shared by many) and reports every symlink that resolves outside it.
// Broken links are left to the load tool's own message; version-control
// and package folders are not searched. The walk visits at most
// maxBundleEntries entries in lexical order, depth first, as
// filepath.WalkDir does; a skill folder that is itself a symlink is not
// walked. On Linux it reads each folder with one getdents64 pass and the
// entries' d_type (bundle_linux.go), elsewhere with filepath.WalkDir.
// When view is not nil it gets what the walk saw (folderView).
func checkBundle(s *subject, view *folderView) []skill.Diagnostic {
	if s == nil || s.flat || s.baseDir == "" {
		return nil
	}
	return walkBundle(s, view)
}

// folderView is what the walk of a skill folder saw, for the body check:
// the names of the folder's entries in the order the file system lists
// them (what (*os.File).Readdirnames gives; nil when the walk did not
// read the folder), for caseVariant and absentAt, and the entries below it
// that are folders or regular files, by their path relative to it (at
// most maxSeen; those below a folder that is a link are not walked).
type folderView struct {
	top  []string
	seen []seenEntry
	// spareTop and spareSeen are the memory of the last skill file's top
	// and seen, cleared, which the next walk fills instead of making its
	// own (runScratch.put keeps them; BenchmarkRun's allocs/skill). top
	// stays nil until a walk reads the folder: nil means "ask the file
	// system".
	spareTop  []string
	spareSeen []seenEntry
}

type seenEntry struct {
	rel string
	dir bool
}

const maxSeen = 256

// exists reports whether the walk saw the clean relative path p as a
// regular file or folder reached through folders only (no link on the
// way): then the os.Root stat of checkReference finds it. false means
// "ask the file system".
func (v *folderView) exists(p string) bool {
	if v == nil || p == "." || p == "" {
		return false
	}
	for i := 0; ; {
		j := strings.IndexByte(p[i:], '/')
		last := j < 0
		prefix := p
		if !last {
			prefix = p[:i+j]
		}
		found := false
		for _, e := range v.seen {
			if e.rel == prefix && (e.dir || last) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
		if last {
			return true
		}
		i += j + 1
	}
}

// bundleLinks is what the walk of one skill folder found: the findings so
// far and the folder's real path, looked up only when there is a link to
// compare with it (most folders hold none).
type bundleLinks struct {
	s       *subject
	base    string
	baseErr error
	diags   []skill.Diagnostic
}

// link reports the symlink at path (rel below the skill folder) when it
// resolves outside the folder; false means the walk stops (the folder's
// real path could not be found, and nothing is reported).
func (b *bundleLinks) link(path, rel string) bool {
	if rel == filepath.Base(b.s.location) {
		return true // the skill file itself is read as the skill, through its link
	}
	if b.base == "" {
		if b.base, b.baseErr = filepath.EvalSymlinks(b.s.baseDir); b.baseErr != nil {
			return false
		}
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil || fsx.Within(target, b.base) {
		return true
	}
	link, _ := os.Readlink(path)
	b.diags = append(b.diags, skill.Diagnostic{
		Code: diagcode.BundledSymlink, Severity: severity(diagcode.BundledSymlink), Path: path, Skill: b.s.name,
		Message: fmt.Sprintf("%s is a symlink to %s, outside the skill folder; the load tool refuses to read it", filepath.ToSlash(rel), link),
	})
	return true
}

func (b *bundleLinks) result() []skill.Diagnostic {
	if b.baseErr != nil {
		return nil
	}
	return b.diags
}

// walkBundleDir is the walk with filepath.WalkDir: what walkBundle does on
// systems without bundle_linux.go, and what TestWalkBundle holds the Linux
// walk to.
func walkBundleDir(s *subject) []skill.Diagnostic {
	b := &bundleLinks{s: s}
	seen := 0
	filepath.WalkDir(s.baseDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > maxBundleEntries {
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(s.baseDir, path)
		if d.IsDir() {
			if path != s.baseDir && (fsx.SkipDir(d.Name()) || depth(rel) >= maxBundleDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		if !b.link(path, rel) {
			return filepath.SkipAll
		}
		return nil
	})
	return b.result()
}

func depth(rel string) int {
	n := 1
	for _, c := range rel {
		if c == filepath.Separator {
			n++
		}
	}
	return n
}
