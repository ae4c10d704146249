//go:build unix

package filecache

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// distrust says why a cache folder or file (fi; what is "index folder",
// "index file") must not be trusted: owned by another user than the one
// running, or writable by its group or by others. "" when it may be.
func distrust(what string, fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if uid := os.Geteuid(); int(st.Uid) != uid {
			return fmt.Sprintf("the %s is owned by uid %d, not by the current user (uid %d)", what, st.Uid, uid)
		}
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("the %s is writable by its group or others (mode %04o)", what, perm)
	}
	return ""
}
