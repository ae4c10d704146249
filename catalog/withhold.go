package catalog

import (
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/skillet-go/skillet/internal/ignore"
)

// IgnoreFile is the file, in a root or in a skill folder, whose patterns
// (.gitignore syntax) name skills that are not loaded (a root's file) and
// bundled files that are never listed or read:
// they stay on disk for the author and are withheld from every reader
// (Files, ReadFile, the load tool, skillet serve, skillet show). Patterns
// in a skill folder's file are relative to that folder and win over the
// root's, which are relative to the root. SKILL.md itself is always
// served. See docs/discovery.md#withheld-files.
const IgnoreFile = ".skilletignore"

// withholder decides which bundled files of one skill are withheld:
// dotfiles and dot-folders (".env", ".git/", ".DS_Store", the ignore file
// itself), and whatever the root's or the skill folder's IgnoreFile
// excludes.
type withholder struct {
	layers ignore.Chain
}

// withholder reads the ignore files of the skill's root and folder. A
// missing, unreadable or oversized file adds no rules (only its first
// ignore.MaxFileBytes count).
func (s *Skill) withholder(root *os.Root) *withholder {
	w := &withholder{}
	if s.Root != "" {
		if rel, err := filepath.Rel(s.Root, s.BaseDir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			if data := readIgnore(func() (*os.File, error) { return openFollow(filepath.Join(s.Root, IgnoreFile)) }); data != nil {
				m, _ := ignore.Parse(data)
				prefix := filepath.ToSlash(rel)
				if prefix == "." {
					prefix = ""
				}
				w.layers = append(w.layers, ignore.Layer{Matcher: m, Prefix: prefix})
			}
		}
	}
	if root != nil {
		if data := readIgnore(func() (*os.File, error) {
			return root.OpenFile(IgnoreFile, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		}); data != nil {
			m, _ := ignore.Parse(data)
			w.layers = append(w.layers, ignore.Layer{Matcher: m})
		}
	}
	return w
}

// readIgnore reads an ignore file, nil when there is none or it is not a
// regular file.
func readIgnore(open func() (*os.File, error)) []byte {
	f, err := open()
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, ignore.MaxFileBytes))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	return data
}

// withheld reports whether the bundled file or folder at rel (clean, "/"
// separators, relative to the skill folder) is withheld.
func (w *withholder) withheld(rel string, isDir bool) bool {
	if rel == "" || rel == "." {
		return false
	}
	if dotted(rel) {
		return true
	}
	return w.layers.Excluded(rel, isDir)
}

// dotted reports whether a segment of rel starts with ".".
func dotted(rel string) bool {
	for seg := range strings.SplitSeq(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// linkWithheld reports whether the symlink at rel leads, in the folder, to
// a withheld file: a link named "notes.txt" that points at ".env" must
// not serve it under another name. It follows up to 40 links, as the
// kernel does; a link that leaves the folder is refused by os.Root anyway.
func (w *withholder) linkWithheld(root *os.Root, rel string) bool {
	cur := rel
	for range 40 {
		target, err := root.Readlink(filepath.FromSlash(cur))
		if err != nil {
			return false // not a link (any more): cur is where it leads
		}
		target = filepath.ToSlash(target)
		if path.IsAbs(target) {
			return false
		}
		cur = path.Clean(path.Join(path.Dir(cur), target))
		if cur == ".." || strings.HasPrefix(cur, "../") {
			return false
		}
		// A folder on the way may itself be a link; checking every
		// segment of the lexical target covers the common cases.
		if w.withheld(cur, false) {
			return true
		}
	}
	return false // a loop: the open reports it
}

// withholdSkills marks the candidates of a root that its IgnoreFile
// excludes (the skill's folder, or a flat-form file) as ignored, like the
// folders discovery skips by name: the runtime does not load them and
// lint still checks them.
func withholdSkills(r *Root, cands []candidate) {
	if len(cands) == 0 || !r.Exists || r.File {
		return
	}
	data := readIgnore(func() (*os.File, error) { return openFollow(filepath.Join(r.Path, IgnoreFile)) })
	if data == nil {
		return
	}
	m, _ := ignore.Parse(data)
	for i := range cands {
		c := &cands[i]
		p, isDir := c.dir, true
		if c.flat {
			p, isDir = c.path, false
		}
		rel, err := filepath.Rel(r.Path, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if m.Excluded(filepath.ToSlash(rel), isDir) {
			c.ignored = true
		}
	}
}
