package fsx

import "strings"

// SkipDir reports whether a folder of this name is never entered when
// skill files, bundled files or watched folders are looked for: the
// stores of version control (.git, .hg, .svn) and the folders of packages
// and caches (node_modules, __pycache__, .venv). See
// docs/discovery.md#folders-never-entered.
func SkipDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv":
		return true
	}
	return false
}

// Escapes reports whether err is an os.Root refusing a path that leads
// out of its folder (through ".." or a symlink). The standard library
// exports no error value for it, so its message is matched, here only.
func Escapes(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "escapes from parent") || strings.Contains(msg, "path escapes")
}
