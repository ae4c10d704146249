package catalog

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/ignore"
	"github.com/skillet-go/skillet/skill"
)

// withholder decides which bundled files of one skill are withheld:
// dotfiles and dot-folders (".env", ".git/", ".DS_Store", the ignore file
// itself), and whatever the root's or the skill folder's .skilletignore
// excludes.
type withholder struct {
	layers ignore.Chain
	// diags are the problems of the skill folder's own .skilletignore (the
	// root's are reported by List).
	diags []skill.Diagnostic
}

// withholder reads the ignore files of the skill's root and folder. A
// missing or unreadable file adds no rules; of an oversized one only the
// whole lines of the first ignore.MaxFileBytes count (ignore-too-large).
func (s *Skill) withholder(root *os.Root) *withholder {
	w := &withholder{}
	if s.Root != "" {
		if rel, err := filepath.Rel(s.Root, s.BaseDir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			if data := readIgnore(func() (*os.File, error) { return openRootIgnore(filepath.Join(s.Root, ignore.FileName), s.allowed) }); data != nil {
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
			return root.OpenFile(ignore.FileName, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		}); data != nil {
			m, bad := ignore.Parse(data)
			w.layers = append(w.layers, ignore.Layer{Matcher: m})
			w.diags = ignoreDiagnostics(filepath.Join(s.BaseDir, ignore.FileName), s.Name, bad)
		}
	}
	return w
}

// openRootIgnore opens a root's .skilletignore at file without blocking and
// checks that the file opened lies where allowed accepts (the root's
// boundary or a trusted path, docs/discovery.md#boundaries), as a skill
// file is checked: an ignore file that is a symlink to a file outside
// would otherwise have its lines quoted in ignore-pattern diagnostics.
func openRootIgnore(file string, allowed func(string) bool) (*os.File, error) {
	f, err := fsx.Open(file)
	if err != nil {
		return nil, err
	}
	if err := checkOpened(f, allowed); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readIgnore reads an ignore file: its first ignore.MaxFileBytes+1 bytes,
// so that ignore.Parse sees that a longer one is too long; nil when there
// is none or it is not a regular file.
func readIgnore(open func() (*os.File, error)) []byte {
	f, err := open()
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _, err := fsx.ReadHead(f, "", ignore.MaxFileBytes+1)
	if err != nil {
		return nil
	}
	return data
}

// The codes of ignore files.
const (
	codeIgnoreTooLarge skill.Code = "ignore-too-large"
	codeIgnorePattern  skill.Code = "ignore-pattern"
)

var _ = skill.Register(
	skill.CodeInfo{Code: codeIgnoreTooLarge, Severity: skill.SeverityWarning,
		Summary: "a .skilletignore is longer than 64 KiB; the lines past that are not used",
		Remedy:  "shorten the file: fewer, broader patterns",
		Source:  "docs/discovery.md#withheld-files",
		Help: "Only the whole lines of the first 65,536 bytes of a .skilletignore are read; the diagnostic names the first line that is not used, and the files its patterns would withhold are not withheld. " +
			"Shorten the file, with fewer and broader patterns (a folder instead of each file in it)."},
	skill.CodeInfo{Code: codeIgnorePattern, Severity: skill.SeverityWarning,
		Summary: "a pattern of a .skilletignore is malformed and matches nothing",
		Remedy:  `close the "[" or escape it as "\["`,
		Source:  "docs/discovery.md#withheld-files",
		Help: `A pattern that is not valid .gitignore syntax (an unclosed "[", a bad character range, a trailing backslash) matches nothing, as git treats it, so the files it was meant to withhold are not withheld. ` +
			`The column points at the part that fails. Close the "[" or escape it as "\[". ` +
			`Only the first 10 malformed patterns of a file are reported each on its own; one more finding counts the rest and names the line of the first.`},
)

// maxIgnorePatternDiags is how many malformed patterns of one ignore file
// are reported each by a diagnostic of its own.
const maxIgnorePatternDiags = 10

// ignoreDiagnostics reports the problems Parse found in the ignore file at
// path (of skill name, "" for a root's file).
//
// Only the first maxIgnorePatternDiags malformed patterns are reported
// one by one; the rest are counted in one more diagnostic at the first of
// them. A 64 KiB file of malformed lines was 21,845 diagnostics: 200
// skill folders holding one each made skillet serve write 910 MB of log
// and peak at 3.9 GB.
func ignoreDiagnostics(path, name string, bad []ignore.Problem) []skill.Diagnostic {
	var diags []skill.Diagnostic
	patterns := 0
	for i, p := range bad {
		if !p.TooLarge {
			patterns++
			if patterns > maxIgnorePatternDiags {
				more := 0
				for _, q := range bad[i:] {
					if !q.TooLarge {
						more++
					}
				}
				diags = append(diags, skill.Diagnostic{Code: codeIgnorePattern, Severity: skill.SeverityWarning, Path: path, Skill: name, Line: p.Line, Column: p.Column,
					Message: fmt.Sprintf("%d more malformed patterns, from this line on, match nothing (only the first %d are reported one by one)", more, maxIgnorePatternDiags)})
				for _, q := range bad[i:] {
					if q.TooLarge {
						diags = append(diags, ignoreDiagnostics(path, name, []ignore.Problem{q})...)
					}
				}
				break
			}
		}
		d := skill.Diagnostic{Code: codeIgnorePattern, Severity: skill.SeverityWarning, Path: path, Skill: name, Line: p.Line, Column: p.Column,
			Message: fmt.Sprintf("the pattern %q is malformed and matches nothing", p.Pattern)}
		if p.TooLarge {
			d.Code = codeIgnoreTooLarge
			d.Message = fmt.Sprintf("the file is longer than %d bytes; the lines from line %d on are not used", ignore.MaxFileBytes, p.Line)
		}
		diags = append(diags, d)
	}
	return diags
}

// withheld reports whether the bundled file or folder at rel (clean, "/"
// separators, relative to the skill folder) is withheld. It is the one
// rule of every reader: Files and the MCP server's snapshot (listFiles),
// ReadFile, and through it the load tool and skillet show --file.
func (w *withholder) withheld(rel string, isDir bool) bool {
	if rel == "" || rel == "." {
		return false
	}
	if dotted(rel) || neverEntered(rel, isDir) {
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

// neverEntered reports whether rel is, or lies inside, a folder that is
// never entered (fsx.SkipDir: node_modules, __pycache__, ...;
// docs/discovery.md#folders-never-entered). The last segment of a file's
// path names the file, not a folder, so a file called node_modules is not
// withheld by this rule.
func neverEntered(rel string, isDir bool) bool {
	if !isDir {
		i := strings.LastIndexByte(rel, '/')
		if i < 0 {
			return false
		}
		rel = rel[:i]
	}
	for seg := range strings.SplitSeq(rel, "/") {
		if fsx.SkipDir(seg) {
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

// withholdSkills marks the candidates of a root that its .skilletignore
// excludes (the skill's folder, or a flat-form file) as ignored, like the
// folders discovery skips by name: the runtime does not load them and
// lint still checks them.
//
// It returns the problems of the root's .skilletignore.
// The candidates are at(0) to at(n-1). allowed is the root's boundary
// check (walker.allowed); an .skilletignore that resolves outside it is not
// read.
func withholdSkills(r *Root, n int, at func(i int) *candidate, allowed func(string) bool) []skill.Diagnostic {
	if n == 0 {
		return nil
	}
	m, diags := rootIgnore(r, allowed)
	if m == nil {
		return nil
	}
	for i := range n {
		if c := at(i); withheldBy(r, m, c) {
			c.ignored = true
		}
	}
	return diags
}

// rootIgnore reads root r's .skilletignore, when r is a folder that exists
// and the file resolves where allowed accepts: its patterns (nil when
// there is no such file) and its problems.
func rootIgnore(r *Root, allowed func(string) bool) (*ignore.Matcher, []skill.Diagnostic) {
	if !r.Exists || r.File {
		return nil, nil
	}
	file := filepath.Join(r.Path, ignore.FileName)
	data := readIgnore(func() (*os.File, error) { return openRootIgnore(file, allowed) })
	if data == nil {
		return nil, nil
	}
	m, bad := ignore.Parse(data)
	return m, ignoreDiagnostics(file, "", bad)
}

// withheldBy reports whether m, the patterns of root r's .skilletignore,
// exclude candidate c (its skill folder, or its file for a flat-form
// skill).
func withheldBy(r *Root, m *ignore.Matcher, c *candidate) bool {
	p, isDir := c.dir(), true
	if c.flat {
		p, isDir = c.path, false
	}
	rel, err := filepath.Rel(r.Path, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	return m.Excluded(filepath.ToSlash(rel), isDir)
}
