//go:build unix

package mcpserver

import (
	"io/fs"
	"syscall"
)

// idOf is the folder's device and inode.
func idOf(p string, fi fs.FileInfo) fileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)} //nolint:unconvert // the types differ by system
	}
	return fileID{path: p}
}
