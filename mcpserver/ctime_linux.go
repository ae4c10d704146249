package mcpserver

import (
	"io/fs"
	"syscall"
)

// changeTime is the inode change time of a file's stat in nanoseconds: a
// file rewritten with its size and modification time put back still
// changes it, so a reload does not reuse its old bytes.
func changeTime(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano()
	}
	return 0
}
