package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/fsx"
)

// File is one bundled file of a skill.
type File struct {
	// Path is relative to the skill folder, with "/" separators.
	Path string
	// Size is the file's size in bytes.
	Size int64
}

// cleanPath checks a path a model or client gave for a file inside a skill
// and returns it cleaned, with "/" separators (ErrOutside, ErrFileNotFound).
func cleanPath(p string) (string, error) { return fsx.CleanRel(p, ErrOutside, ErrFileNotFound) }

// ReadFile reads a bundled file of the named skill (stage 3). The path is
// relative to the skill folder; the read goes through os.Root opened at
// that folder, so neither ".." nor a symlink can leave it. A file larger
// than limit bytes is refused with ErrTooLarge (limit <= 0: no limit).
// Errors wrap ErrNotFound, ErrFileNotFound, ErrOutside, ErrNotFile or
// ErrTooLarge.
func (c *Catalog) ReadFile(ctx context.Context, name, rel string, limit int64) ([]byte, error) {
	s, err := c.Get(ctx, name)
	if err != nil {
		return nil, err
	}
	return s.ReadFile(rel, limit)
}

// ReadFile reads a bundled file of the skill; see [Catalog.ReadFile].
func (s *Skill) ReadFile(rel string, limit int64) ([]byte, error) {
	clean, err := cleanPath(rel)
	if err != nil {
		return nil, err
	}
	if clean == "." {
		return nil, fmt.Errorf("%w: %q is the skill folder itself", ErrNotFile, rel)
	}
	if s.src != nil {
		return s.readFileSource(rel, clean, limit)
	}
	if s.Flat && clean != filepath.Base(s.Location) {
		// Only its own file: a reader (agent's tool, the server) says the
		// skill has no bundled files, as for a folder that has none.
		return nil, fmt.Errorf("%w: %q", ErrFileNotFound, rel)
	}
	root, err := s.openRoot()
	if err != nil {
		return nil, fmt.Errorf("opening the skill folder: %w", err)
	}
	defer root.Close()
	if !s.Flat && clean != filepath.Base(s.Location) {
		// Withheld files read as absent, whether or not they exist, so a
		// reader learns nothing of them.
		w := s.withholder(root)
		if w.withheld(clean, false) || w.linkWithheld(root, clean) {
			return nil, fmt.Errorf("%w: %q", ErrFileNotFound, rel)
		}
	}
	f, err := root.OpenFile(filepath.FromSlash(clean), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fileError(rel, err)
	}
	defer f.Close()
	if limit <= 0 {
		limit = -1
	}
	data, _, err := fsx.ReadOpen(f, "", limit)
	var re *fsx.ReadError
	switch {
	case errors.As(err, &re) && re.Err == ErrNotFile:
		return nil, fmt.Errorf("%w: %q is %s", ErrNotFile, rel, fsx.Kind(re.Mode))
	case errors.As(err, &re) && re.Size < 0:
		return nil, fmt.Errorf("%w: %q grew past the %d-byte limit while it was read", ErrTooLarge, rel, limit)
	case errors.As(err, &re):
		return nil, fmt.Errorf("%w: %q is %d bytes, over the %d-byte limit", ErrTooLarge, rel, re.Size, limit)
	case err != nil:
		return nil, fileError(rel, err)
	}
	return data, nil
}

// fileError maps an os.Root error to the catalog's errors.
func fileError(rel string, err error) error {
	switch {
	case fsx.Escapes(err):
		return fmt.Errorf("%w: %q leads outside the skill folder", ErrOutside, rel)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %q", ErrFileNotFound, rel)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%w: %q is a symlink loop", ErrOutside, rel)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%w: %q", ErrFileNotFound, rel)
	case errors.Is(err, syscall.EISDIR):
		return fmt.Errorf("%w: %q is a folder", ErrNotFile, rel)
	}
	return fmt.Errorf("reading %q: %w", rel, err)
}

// Files lists the regular files of the named skill folder, SKILL.md
// included, sorted by path, with "/" separators. Symlinks are listed when
// they lead to a file inside the folder; symlinked folders are not entered;
// node_modules and __pycache__ folders are skipped, and withheld files
// (dotfiles, dot-folders and what an .skilletignore excludes) are never listed.
// At most limit files are returned (limit <= 0: DefaultFileLimit); more
// reports that some were left out. Size is the file's length, the bytes a
// reader gets, whatever it takes on disk (a sparse file, a hard link).
func (c *Catalog) Files(ctx context.Context, name string, limit int) (files []File, more bool, err error) {
	s, err := c.Get(ctx, name)
	if err != nil {
		return nil, false, err
	}
	return s.Files(ctx, limit)
}

// Files lists the skill's files; see [Catalog.Files].
func (s *Skill) Files(ctx context.Context, limit int) (files []File, more bool, err error) {
	l, err := s.listFiles(ctx, limit)
	if err != nil {
		return nil, false, err
	}
	return l.Files, l.More, nil
}

// fileList is a skill's files as listFiles finds them.
type fileList = catalogx.FileList[File]

// listFiles lists the skill's files as [Skill.Files] does, and counts what
// it withheld (the MCP server reads it: catalogx.Hooks.ListFiles).
func (s *Skill) listFiles(ctx context.Context, limit int) (*fileList, error) {
	if limit <= 0 {
		limit = catalogx.DefaultFileLimit
	}
	if s.src != nil {
		return s.filesSource(ctx, limit)
	}
	if s.Flat {
		fi, err := os.Stat(s.Location)
		if err != nil {
			return nil, err
		}
		return &fileList{Files: []File{{Path: filepath.Base(s.Location), Size: fi.Size()}}}, nil
	}
	root, err := s.openRoot()
	if err != nil {
		return nil, fmt.Errorf("opening the skill folder: %w", err)
	}
	defer root.Close()
	fw := &filesWalk{ctx: ctx, root: root, w: s.withholder(root), skillBase: filepath.Base(s.Location), limit: limit}
	if err := fs.WalkDir(root.FS(), ".", fw.visit); err != nil {
		return nil, err
	}
	slices.SortFunc(fw.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return &fileList{Files: fw.files, More: fw.more, Withheld: fw.withheld, Diagnostics: fw.w.diags}, nil
}

// filesWalk is one walk of listFiles through a skill folder opened as root:
// the files found (at most limit, more set when there were others) and the
// count of entries withheld.
type filesWalk struct {
	ctx       context.Context
	root      *os.Root
	w         *withholder
	skillBase string // the skill file's name, never withheld
	limit     int

	files    []File
	more     bool
	withheld int
}

// visit is the fs.WalkDirFunc of the walk: it skips what is withheld
// (counting it), unreadable entries and what is not a regular file or a
// symlink to one inside the folder, and stops at the limit.
func (fw *filesWalk) visit(p string, d fs.DirEntry, err error) error {
	if err != nil {
		if p == "." {
			return err
		}
		return nil // an unreadable entry is left out
	}
	if cerr := fw.ctx.Err(); cerr != nil {
		return cerr
	}
	if d.IsDir() {
		if p == "." {
			return nil
		}
		if fw.w.withheld(p, true) {
			// Dot-folders count as withheld; node_modules and the
			// like are passed over without a count.
			if strings.HasPrefix(d.Name(), ".") || !fsx.SkipDir(d.Name()) {
				fw.withheld++
			}
			return fs.SkipDir
		}
		return nil
	}
	if p != fw.skillBase && (fw.w.withheld(p, false) || (d.Type()&fs.ModeSymlink != 0 && fw.w.linkWithheld(fw.root, p))) {
		fw.withheld++
		return nil
	}
	size, ok := fw.size(p, d)
	if !ok {
		return nil
	}
	if len(fw.files) >= fw.limit {
		fw.more = true
		return fs.SkipAll
	}
	fw.files = append(fw.files, File{Path: p, Size: size})
	return nil
}

// size is the length of the file at p: a regular file's own, a symlink's
// target's when it is a regular file inside the folder; ok is false for
// anything else and for what cannot be stat'ed.
func (fw *filesWalk) size(p string, d fs.DirEntry) (size int64, ok bool) {
	switch {
	case d.Type().IsRegular():
		info, err := d.Info()
		if err != nil {
			return 0, false
		}
		return info.Size(), true
	case d.Type()&fs.ModeSymlink != 0:
		info, err := fw.root.Stat(filepath.FromSlash(p)) // follows, confined to the folder
		if err != nil || !info.Mode().IsRegular() {
			return 0, false
		}
		return info.Size(), true
	}
	return 0, false
}
