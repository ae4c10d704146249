//go:build unix

package catalog

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// distrust says why an index folder or file (fi) must not be trusted:
// owned by another user than the one running, or writable by its group or
// by others, who could then forge the listing and so the descriptions in
// skillet prompt and the MCP server's instructions
// (docs/performance.md#persistent-index). "" when it may be trusted.
func distrust(what string, fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if uid := os.Geteuid(); int(st.Uid) != uid {
			return fmt.Sprintf("the index %s is owned by uid %d, not by the current user (uid %d)", what, st.Uid, uid)
		}
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("the index %s is writable by its group or others (mode %04o)", what, perm)
	}
	return ""
}
