package fsx

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// CleanRel checks a path a model or client gave for a file inside a folder
// and returns it cleaned, with "/" separators ("\" is read as "/").
// Absolute paths, paths with a volume or drive, paths holding a NUL byte and
// paths with a ".." element are refused with an error wrapping outside;
// an empty or blank path with one wrapping empty. The callers pass their
// own sentinels (catalog.ErrOutside, catalog.ErrFileNotFound).
func CleanRel(p string, outside, empty error) (string, error) {
	q := strings.ReplaceAll(p, `\`, "/")
	if strings.TrimSpace(q) == "" {
		return "", fmt.Errorf("%w: empty path", empty)
	}
	if strings.ContainsRune(q, 0) {
		return "", fmt.Errorf("%w: %q holds a NUL byte", outside, p)
	}
	if strings.HasPrefix(q, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != "" || (len(q) >= 2 && q[1] == ':') {
		return "", fmt.Errorf("%w: %q is absolute; give a path relative to the skill folder", outside, p)
	}
	for _, el := range strings.Split(q, "/") {
		if el == ".." {
			return "", fmt.Errorf("%w: %q climbs out with \"..\"", outside, p)
		}
	}
	return path.Clean(q), nil
}

// Within reports whether path p is dir or inside it (both absolute and
// clean); it compares paths as given, without resolving symlinks.
//
// Two clean absolute paths (cleanAbs) are compared by their bytes: p is
// inside dir when it starts with dir and a separator. That is what
// filepath.Rel's answer says of them, without its two Cleans and its
// copy, which were 4% of what lint --compat adds to lint's CPU (pprof);
// other paths go through filepath.Rel. FuzzWithin holds the two ways alike.
func Within(p, dir string) bool {
	if p == dir {
		return true
	}
	if filepath.Separator == '/' && cleanAbs(p) && cleanAbs(dir) {
		n := len(dir)
		return len(p) > n && p[:n] == dir && (p[n] == '/' || n == 1)
	}
	return withinRel(p, dir)
}

// withinRel is Within by filepath.Rel.
func withinRel(p, dir string) bool {
	if p == dir {
		return true
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// cleanAbs reports whether p is an absolute path with "/" separators that
// filepath.Clean leaves as it is: no empty, "." or ".." element and no
// separator at the end (but "/" itself).
func cleanAbs(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if len(p) == 1 {
		return true
	}
	start := 1 // the start of the element being read
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		switch p[start:i] {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}

// Display returns p relative to base when it lies inside base, else p
// unchanged; base "" leaves every path absolute. Reports and messages use
// it so paths read as Go tools print them (relative to the current folder).
func Display(p, base string) string {
	if base == "" || !filepath.IsAbs(p) {
		return p
	}
	if Within(p, base) {
		if rel, err := filepath.Rel(base, p); err == nil {
			return rel
		}
	}
	return p
}
