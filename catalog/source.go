package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

// Source is one place a [Catalog] finds skills (Options.Sources,
// docs/discovery.md#sources). Set FS for skill folders in an fs.FS, Skills
// for skills the program builds itself, or neither for the local file
// system: the workspace's, the user's and the extra roots, with every rule
// of docs/discovery.md (boundaries, the stamp cache, host presets).
//
// An FS source holds directory-form skills (NAME/SKILL.md with its bundled
// files beside it) below Dir, in grouping folders at most MaxDepth deep;
// entries whose name starts with "." or "_" are passed over, as on disk.
// Its skills' locations are Base followed by the file's path below Dir,
// with one "/" between them (default Base: "embed://" + Dir, so embed.FS
// skills under skills/ read embed://skills/NAME/SKILL.md), and their bundled files are read from the
// FS, confined to the skill folder by fs.ValidPath; dotfiles and
// dot-folders are withheld. An FS is read anew on every List, except
// files whose size and modification time are unchanged (an embed.FS
// never changes). For a folder on disk prefer the local file system,
// which checks symlinks; os.DirFS follows them out of the folder.
//
// A Skills source holds skills as the caller built them: each needs a
// valid name (docs/format.md#names) and a description, and loads its Body
// (it has no bundled files; reading its SKILL.md gives the body). Its
// location is Base followed by "NAME/SKILL.md" (default Base:
// "builtin://"). [New] returns an error for a skill that
// could not be loaded.
type Source struct {
	FS     fs.FS
	Dir    string
	Skills []*skill.Skill
	// Base starts the locations the model is shown (see above).
	Base string
	// Scope labels the source's skills and orders nothing (the order of
	// Options.Sources does); "" means ScopeExtra.
	Scope Scope
}

// source is a Source as New checked it, with its cache.
type source struct {
	Source
	disk bool
	base string

	mu    sync.Mutex
	cache map[string]*fsEntry // by location
}

// fsEntry is one SKILL.md of an FS source as last read.
type fsEntry struct {
	size      int64
	mtime     int64
	parsed    *skill.Skill
	diags     []skill.Diagnostic
	truncated bool
}

// newSources checks opts.Sources; nil when the catalog reads the local
// file system alone.
func newSources(srcs []Source) ([]*source, error) {
	if srcs == nil {
		return nil, nil
	}
	out := make([]*source, 0, len(srcs))
	disk := false
	for i, s := range srcs {
		src := &source{Source: s}
		if src.Scope == "" {
			src.Scope = ScopeExtra
		}
		switch {
		case s.FS != nil && s.Skills != nil:
			return nil, fmt.Errorf("catalog: Options.Sources[%d] sets both FS and Skills", i)
		case s.FS != nil:
			dir := s.Dir
			if dir == "" {
				dir = "."
			}
			if !fs.ValidPath(dir) {
				return nil, fmt.Errorf("catalog: Options.Sources[%d].Dir %q is not a valid fs.FS path (fs.ValidPath)", i, s.Dir)
			}
			src.Dir = dir
			src.base = s.Base
			if src.base == "" {
				src.base = "embed://" + strings.TrimPrefix(dir, ".")
			}
			src.cache = map[string]*fsEntry{}
		case s.Skills != nil:
			src.base = s.Base
			if src.base == "" {
				src.base = "builtin://"
			}
			seen := map[string]bool{}
			for j, p := range s.Skills {
				switch {
				case p == nil:
					return nil, fmt.Errorf("catalog: Options.Sources[%d].Skills[%d] is nil", i, j)
				case !skill.ValidName(p.Name):
					return nil, fmt.Errorf("catalog: Options.Sources[%d].Skills[%d]: %q is not a valid skill name (docs/format.md#names)", i, j, p.Name)
				case strings.TrimSpace(p.Description) == "":
					return nil, fmt.Errorf("catalog: Options.Sources[%d].Skills[%d] (%s) has no description", i, j, p.Name)
				case seen[p.Name]:
					return nil, fmt.Errorf("catalog: Options.Sources[%d].Skills holds %q twice", i, p.Name)
				}
				seen[p.Name] = true
			}
		default:
			if disk {
				return nil, fmt.Errorf("catalog: Options.Sources[%d] names the local file system a second time", i)
			}
			disk, src.disk = true, true
		}
		out = append(out, src)
	}
	return out, nil
}

// location is where the source shows the file at rel (a path below Dir).
func (src *source) location(rel string) string {
	return strings.TrimSuffix(src.base, "/") + "/" + rel
}

// list returns the source's skills, in path order, and the diagnostics of
// reading them.
func (src *source) list(ctx context.Context, c *Catalog) ([]*Skill, []skill.Diagnostic) {
	if src.Skills != nil {
		out := make([]*Skill, 0, len(src.Skills))
		for _, p := range src.Skills {
			loc := src.location(p.Name + "/" + SkillFile)
			s := &Skill{Location: loc, BaseDir: strings.TrimSuffix(loc, "/"+SkillFile), Root: src.base,
				Scope: src.Scope, Folder: src.base, Bytes: int64(len(p.Body)), c: c, src: src}
			s.setParsed(p)
			out = append(out, s)
		}
		return out, nil
	}
	src.mu.Lock()
	defer src.mu.Unlock()
	var out []*Skill
	var diags []skill.Diagnostic
	next := map[string]*fsEntry{}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if ctx.Err() != nil {
			return
		}
		ents, err := fs.ReadDir(src.FS, dir)
		if err != nil {
			diags = append(diags, skill.Diagnostic{Code: diagcode.Unreadable, Severity: skill.SeverityWarning,
				Path: src.location(src.rel(dir)), Message: fmt.Sprintf("the folder cannot be read: %v", err)})
			return
		}
		for _, e := range ents {
			name := e.Name()
			if !e.IsDir() || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || fsx.SkipDir(name) {
				continue
			}
			sub := path.Join(dir, name)
			file := path.Join(sub, SkillFile)
			if fi, err := fs.Stat(src.FS, file); err == nil && fi.Mode().IsRegular() {
				if s, d := src.read(c, file, fi, next); s != nil {
					out = append(out, s)
					diags = append(diags, d...)
				} else {
					diags = append(diags, d...)
				}
				continue
			}
			if depth < c.settings.MaxDepth {
				walk(sub, depth+1)
			}
		}
	}
	walk(src.Dir, 1)
	src.cache = next
	return out, diags
}

// rel is the path of p (a path in the FS) below Dir.
func (src *source) rel(p string) string {
	if src.Dir == "." {
		return p
	}
	return strings.TrimPrefix(strings.TrimPrefix(p, src.Dir), "/")
}

// read parses the SKILL.md at file (a path in the FS), or takes it from
// the cache when its size and modification time are unchanged.
func (src *source) read(c *Catalog, file string, fi fs.FileInfo, next map[string]*fsEntry) (*Skill, []skill.Diagnostic) {
	loc := src.location(src.rel(file))
	e := src.cache[loc]
	if e == nil || e.size != fi.Size() || e.mtime != fi.ModTime().UnixNano() {
		data, truncated, err := readFS(src.FS, file, c.settings.MaxSkillBytes)
		if err != nil {
			return nil, []skill.Diagnostic{{Code: diagcode.Unreadable, Severity: skill.SeverityError, Path: loc,
				Message: fmt.Sprintf("the skill file cannot be read: %v", err)}}
		}
		p, diags := parseSkill(data, &skill.Options{Path: loc, Mode: c.settings.Mode,
			MaxDescriptionChars: c.settings.MaxDescriptionChars, Truncated: truncated, SkipBody: !c.opts.bodies}, path.Dir(file))
		if truncated {
			diags = append(diags, skill.Diagnostic{Code: diagcode.TooLarge, Severity: skill.SeverityWarning, Path: loc,
				Message: fmt.Sprintf("the file is %d bytes; only the first %d (maxSkillBytes) are read", fi.Size(), c.settings.MaxSkillBytes)})
		}
		e = &fsEntry{size: fi.Size(), mtime: fi.ModTime().UnixNano(), parsed: p, diags: diags, truncated: truncated}
	}
	next[loc] = e
	if e.parsed == nil {
		return nil, e.diags
	}
	s := &Skill{Location: loc, BaseDir: loc[:strings.LastIndexByte(loc, '/')], Root: src.base, Scope: src.Scope, Folder: src.base,
		Bytes: e.size, Truncated: e.truncated, c: c, src: src}
	s.setParsed(e.parsed)
	return s, e.diags
}

// readFS reads at most max bytes of the regular file name in fsys (limit
// <= 0: all of it), a partial UTF-8 sequence at the cut dropped.
func readFS(fsys fs.FS, name string, max int) (data []byte, truncated bool, err error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, notFileError(fi.Mode())
	}
	r := io.Reader(f)
	if max > 0 {
		r = io.LimitReader(f, int64(max)+1)
	}
	data, err = io.ReadAll(r)
	if err != nil {
		return nil, false, err
	}
	if max > 0 && len(data) > max {
		return cutRune(data[:max]), true, nil
	}
	return data, false, nil
}

// fsDir is the skill's folder in its source's FS.
func (s *Skill) fsDir() string {
	rel := strings.TrimPrefix(strings.TrimPrefix(s.BaseDir, strings.TrimSuffix(s.src.base, "/")), "/")
	if s.src.Dir == "." {
		return rel
	}
	return path.Join(s.src.Dir, rel)
}

// loadSource is Load for a skill of a Source.
func (s *Skill) loadSource() (*Loaded, error) {
	if s.src.Skills != nil {
		p := s.Parsed()
		return &Loaded{Skill: s, Body: p.Body, Bytes: len(p.Body)}, nil
	}
	c := s.c
	data, truncated, err := readFS(s.src.FS, path.Join(s.fsDir(), SkillFile), c.settings.MaxSkillBytes)
	if err != nil {
		return nil, fmt.Errorf("reading skill %q: %w", s.Name, err)
	}
	parsed, _ := parseSkill(data, &skill.Options{Path: s.Location, Mode: c.settings.Mode,
		MaxDescriptionChars: c.settings.MaxDescriptionChars, Truncated: truncated}, s.fsDir())
	if parsed == nil {
		return nil, fmt.Errorf("skill %q no longer parses", s.Name)
	}
	return &Loaded{Skill: s, Body: parsed.Body, Truncated: truncated, Bytes: len(data)}, nil
}

// filesSource is listFiles for a skill of a Source.
func (s *Skill) filesSource(ctx context.Context, limit int) (*fileList, error) {
	if s.src.Skills != nil {
		return &fileList{Files: []File{{Path: SkillFile, Size: s.Bytes}}}, nil
	}
	dir := s.fsDir()
	l := &fileList{}
	err := fs.WalkDir(s.src.FS, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if p == dir {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			l.Withheld++
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if fsx.SkipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if len(l.Files) == limit {
			l.More = true
			return fs.SkipAll
		}
		l.Files = append(l.Files, File{Path: strings.TrimPrefix(p, dir+"/"), Size: info.Size()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(l.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return l, nil
}

// readFileSource is ReadFile for a skill of a Source; clean is the
// checked relative path.
func (s *Skill) readFileSource(rel, clean string, limit int64) ([]byte, error) {
	if s.src.Skills != nil {
		if clean == SkillFile {
			return []byte(s.Parsed().Body), nil
		}
		return nil, fmt.Errorf("%w: %q", ErrFileNotFound, rel)
	}
	if dotted(clean) || neverEntered(clean, false) {
		return nil, fmt.Errorf("%w: %q", ErrFileNotFound, rel)
	}
	name := path.Join(s.fsDir(), clean)
	if !fs.ValidPath(name) {
		return nil, fmt.Errorf("%w: %q leads outside the skill folder", ErrOutside, rel)
	}
	fi, err := fs.Stat(s.src.FS, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%w: %q", ErrFileNotFound, rel)
	case err != nil:
		return nil, fmt.Errorf("reading %q: %w", rel, err)
	case fi.IsDir():
		return nil, fmt.Errorf("%w: %q is a folder", ErrNotFile, rel)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%w: %q is not a regular file", ErrNotFile, rel)
	case limit > 0 && fi.Size() > limit:
		return nil, fmt.Errorf("%w: %q is %d bytes, over the %d-byte limit", ErrTooLarge, rel, fi.Size(), limit)
	}
	data, truncated, err := readFS(s.src.FS, name, int(limit))
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", rel, err)
	}
	if truncated {
		return nil, fmt.Errorf("%w: %q grew past the %d-byte limit while it was read", ErrTooLarge, rel, limit)
	}
	return data, nil
}
