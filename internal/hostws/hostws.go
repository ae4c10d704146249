// Package hostws reads the workspaces on which the real coding agents were
// recorded (hosts/testdata/workspaces/NAME.txtar), lays one out on disk as
// a sandbox, and reads the recordings of what each agent listed there
// (hosts/testdata/recordings/HOST/NAME.json). The formats are described in
// hosts/README.md; docs/hosts.md says what the recordings are for.
//
// A workspace is a txtar archive. Its comment holds directive lines:
//
//	describe: TEXT            what the workspace shows
//	cwd: proj/a/b             working folder, sandbox-relative (default proj)
//	git: proj                 that folder is a git root (repeatable)
//	symlink: LINK -> TARGET   LINK sandbox-relative; TARGET relative to LINK's
//	                          folder, or /x/y for sandbox-root-relative
//	corpus: SRC -> DEST       copy folder SRC of the corpus of published
//	                          skills to DEST
//	hosts: claude codex       only these hosts are recorded on it
//
// Blank lines and lines starting with # are ignored. Files whose path
// starts with home/ go into the isolated HOME (the sandbox's home folder);
// all others are relative to the sandbox root, where proj/ is the project
// and outside/ lies outside it.
package hostws

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// ErrFormat is wrapped by every error about a malformed workspace or
// recording.
var ErrFormat = errors.New("hostws: bad format")

// Workspace is one parsed workspace archive.
type Workspace struct {
	Name     string   // file name without .txtar
	Describe string   // the describe: line
	Cwd      string   // working folder, slash-separated, sandbox-relative
	Git      []string // git roots, sandbox-relative
	Symlinks []Link
	Corpus   []Copy
	Hosts    []string // nil: every host
	Files    []File
}

// Link is a symlink: directive. Target is as written (relative to the
// link's folder, or starting with / for sandbox-root-relative).
type Link struct{ Link, Target string }

// Copy is a corpus: directive: Src relative to the corpus root, Dest
// sandbox-relative.
type Copy struct{ Src, Dest string }

// File is one file of the archive, its Name sandbox-relative.
type File struct {
	Name string
	Data []byte
}

// ForHost reports whether host is to be recorded on w.
func (w *Workspace) ForHost(host string) bool {
	if len(w.Hosts) == 0 {
		return true
	}
	for _, h := range w.Hosts {
		if h == host {
			return true
		}
	}
	return false
}

// parseArchive is txtar.Parse, which panics on some malformed marker
// lines (go-internal v1.16.0: a line "-- --" slices out of range); the
// panic becomes an error.
func parseArchive(data []byte) (ar *txtar.Archive, err error) {
	defer func() {
		if r := recover(); r != nil {
			ar, err = nil, fmt.Errorf("not a readable txtar archive (%v)", r)
		}
	}()
	return txtar.Parse(data), nil
}

// Parse reads a workspace archive named name (the file name without
// .txtar). Errors wrap ErrFormat and name the line.
func Parse(name string, data []byte) (*Workspace, error) {
	ar, err := parseArchive(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s.txtar: %v", ErrFormat, name, err)
	}
	w := &Workspace{Name: name, Cwd: "proj"}
	for i, line := range strings.Split(string(ar.Comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		bad := func(msg string) error {
			return fmt.Errorf("%w: %s.txtar:%d: %s: %q", ErrFormat, name, i+1, msg, line)
		}
		if !ok {
			return nil, bad("not a directive (want key: value)")
		}
		switch strings.TrimSpace(key) {
		case "describe":
			w.Describe = val
		case "cwd":
			p, err := clean(val)
			if err != nil {
				return nil, bad(err.Error())
			}
			w.Cwd = p
		case "git":
			p, err := clean(val)
			if err != nil {
				return nil, bad(err.Error())
			}
			w.Git = append(w.Git, p)
		case "symlink":
			l, t, ok := strings.Cut(val, "->")
			if !ok {
				return nil, bad("want LINK -> TARGET")
			}
			lp, err := clean(strings.TrimSpace(l))
			if err != nil {
				return nil, bad(err.Error())
			}
			t = strings.TrimSpace(t)
			if t == "" {
				return nil, bad("empty target")
			}
			w.Symlinks = append(w.Symlinks, Link{Link: lp, Target: t})
		case "corpus":
			s, d, ok := strings.Cut(val, "->")
			if !ok {
				return nil, bad("want SRC -> DEST")
			}
			sp, err := clean(strings.TrimSpace(s))
			if err != nil {
				return nil, bad(err.Error())
			}
			dp, err := clean(strings.TrimSpace(d))
			if err != nil {
				return nil, bad(err.Error())
			}
			w.Corpus = append(w.Corpus, Copy{Src: sp, Dest: dp})
		case "hosts":
			w.Hosts = strings.Fields(val)
		default:
			return nil, bad("unknown directive")
		}
	}
	for _, f := range ar.Files {
		p, err := clean(f.Name)
		if err != nil {
			return nil, fmt.Errorf("%w: %s.txtar: file %q: %v", ErrFormat, name, f.Name, err)
		}
		w.Files = append(w.Files, File{Name: p, Data: f.Data})
	}
	return w, nil
}

// clean checks that p is a relative slash path that stays inside the
// sandbox, and returns it cleaned.
func clean(p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return "", errors.New("path must be relative and slash-separated")
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", errors.New("path leaves the sandbox")
	}
	return c, nil
}

// ParseFile reads the workspace archive at file.
func ParseFile(file string) (*Workspace, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(strings.TrimSuffix(filepath.Base(file), ".txtar"), data)
}

// LoadDir reads every NAME.txtar in dir, sorted by name.
func LoadDir(dir string) ([]*Workspace, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	sort.Strings(matches)
	var out []*Workspace
	for _, m := range matches {
		w, err := ParseFile(m)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// Options tune Materialize.
type Options struct {
	// CorpusDir is the root of the corpus of published skills, needed by
	// workspaces with a corpus: directive.
	CorpusDir string
	// GitInit runs "git init -q" in each git root; otherwise an empty .git
	// folder is created, which is what discovery code looks for.
	GitInit bool
}

// Sandbox is a materialized workspace: absolute paths of the sandbox root,
// the isolated HOME (Root/home) and the working folder.
type Sandbox struct{ Root, Home, Cwd string }

// Materialize lays w out under dir (which should be empty; it is created
// if missing) and returns the sandbox. The home and working folders always
// exist afterwards. A nil opt means the zero Options.
func (w *Workspace) Materialize(dir string, opt *Options) (*Sandbox, error) {
	if opt == nil {
		opt = &Options{}
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	sb := &Sandbox{Root: root, Home: filepath.Join(root, "home"), Cwd: filepath.Join(root, filepath.FromSlash(w.Cwd))}
	for _, d := range []string{sb.Home, sb.Cwd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	made := map[string]bool{root: true, sb.Home: true, sb.Cwd: true}
	for _, f := range w.Files {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := mkdirMade(filepath.Dir(p), made); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return nil, err
		}
	}
	for _, c := range w.Corpus {
		if opt.CorpusDir == "" {
			return nil, fmt.Errorf("hostws: workspace %s copies %s from the corpus, but no corpus folder was given", w.Name, c.Src)
		}
		if err := copyTree(filepath.Join(opt.CorpusDir, filepath.FromSlash(c.Src)), filepath.Join(root, filepath.FromSlash(c.Dest))); err != nil {
			return nil, fmt.Errorf("hostws: workspace %s: corpus %s: %w", w.Name, c.Src, err)
		}
	}
	for _, l := range w.Symlinks {
		link := filepath.Join(root, filepath.FromSlash(l.Link))
		target := filepath.FromSlash(l.Target)
		if strings.HasPrefix(l.Target, "/") {
			// Sandbox-root-relative: written relative to the link's folder so
			// that the sandbox can be moved.
			rel, err := filepath.Rel(filepath.Dir(link), filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(l.Target, "/"))))
			if err != nil {
				return nil, err
			}
			target = rel
		}
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			return nil, err
		}
		if err := os.Symlink(target, link); err != nil {
			return nil, fmt.Errorf("hostws: workspace %s: %w", w.Name, err)
		}
	}
	for _, g := range w.Git {
		d := filepath.Join(root, filepath.FromSlash(g))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
		if opt.GitInit {
			cmd := exec.Command("git", "init", "-q")
			cmd.Dir = d
			if out, err := cmd.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("hostws: git init %s: %w: %s", g, err, out)
			}
		} else if err := os.MkdirAll(filepath.Join(d, ".git"), 0o755); err != nil {
			return nil, err
		}
	}
	return sb, nil
}

// mkdirMade is os.MkdirAll(d, 0o755) for the folders of one Materialize,
// made (or found) so far by path in made: a folder whose parent was made
// is made by one mkdir, not by a stat of it, a stat of its parent and a
// mkdir (a generated catalog of a thousand skills has a folder a file).
func mkdirMade(d string, made map[string]bool) error {
	if made[d] {
		return nil
	}
	err := os.ErrNotExist
	if made[filepath.Dir(d)] {
		err = os.Mkdir(d, 0o755)
	}
	if err != nil {
		if err = os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for ; !made[d]; d = filepath.Dir(d) {
		made[d] = true // and its parents, up to one made before
	}
	return nil
}

// copyTree copies the regular files and folders below src to dst; symlinks
// are copied as links. A file is always copied, never hard-linked: a later
// copy onto the same path, or a test writing into its sandbox, would write
// through a link into the corpus (and a link changes the corpus file's
// link count and change time, which other tests reading it check).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(t, to)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, data, 0o644)
		}
		return nil
	})
}

// Rel returns the sandbox-relative slash path of the absolute path p, or
// "" when p lies outside the sandbox.
func (sb *Sandbox) Rel(p string) string {
	rel, err := filepath.Rel(sb.Root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// SandboxRootLen is the length in bytes of the sandbox root path the
// recorder lays generated workspaces out at, and that a replay should use
// too (SandboxRoot): a host that counts its catalog against a budget
// counts the absolute paths it shows, so the same workspace at a path of
// another length could be cut differently.
const SandboxRootLen = 100

// SandboxRoot returns a folder path of exactly SandboxRootLen bytes below
// dir ("DIR/sbxxx...x"), or an error when dir is too long for one.
func SandboxRoot(dir string) (string, error) {
	dir = filepath.Clean(dir)
	pad := SandboxRootLen - len(dir) - len("/sb")
	if pad < 0 {
		return "", fmt.Errorf("hostws: the folder %s is too long for a sandbox root of %d bytes", dir, SandboxRootLen)
	}
	return filepath.Join(dir, "sb"+strings.Repeat("x", pad)), nil
}

// Format writes w as a workspace archive that Parse reads back: the
// directives (describe, cwd, git, symlink, corpus, hosts) in the comment,
// then the files. txtar ends every file with a line break, so a file
// without a final one gains it; a file whose lines would read as a file
// marker ("-- NAME --") cannot be written and is an error wrapping
// ErrFormat.
func (w *Workspace) Format() ([]byte, error) {
	var c strings.Builder
	if w.Describe != "" {
		fmt.Fprintf(&c, "describe: %s\n", strings.ReplaceAll(w.Describe, "\n", " "))
	}
	if w.Cwd != "" && w.Cwd != "proj" {
		fmt.Fprintf(&c, "cwd: %s\n", w.Cwd)
	}
	for _, g := range w.Git {
		fmt.Fprintf(&c, "git: %s\n", g)
	}
	for _, l := range w.Symlinks {
		fmt.Fprintf(&c, "symlink: %s -> %s\n", l.Link, l.Target)
	}
	for _, k := range w.Corpus {
		fmt.Fprintf(&c, "corpus: %s -> %s\n", k.Src, k.Dest)
	}
	if len(w.Hosts) > 0 {
		fmt.Fprintf(&c, "hosts: %s\n", strings.Join(w.Hosts, " "))
	}
	ar := &txtar.Archive{Comment: []byte(c.String())}
	for _, f := range w.Files {
		ar.Files = append(ar.Files, txtar.File{Name: f.Name, Data: f.Data})
	}
	data := txtar.Format(ar)
	back, err := parseArchive(data)
	if err != nil || len(back.Files) != len(w.Files) {
		return nil, fmt.Errorf("%w: %s: a file's lines read as a txtar file marker", ErrFormat, w.Name)
	}
	return data, nil
}
