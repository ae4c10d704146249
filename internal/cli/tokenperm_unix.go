//go:build unix

package cli

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkTokenPerm refuses a token file that others could read or replace,
// as ssh refuses a private key: writable by its group or by others, or
// readable by others. Readable by its group is allowed only when root owns
// the file, the shape of a secret mounted for the group the server runs
// as (a Kubernetes secret with fsGroup, a Docker secret); PostgreSQL
// applies the same rule to its server key.
func checkTokenPerm(file string, mode fs.FileMode) error {
	perm := mode.Perm()
	switch {
	case perm&0o022 != 0:
		return fmt.Errorf("%s is writable by its group or by others (mode %04o): anyone who can write it chooses the token; chmod 600 it", file, perm)
	case perm&0o004 != 0:
		return fmt.Errorf("%s is readable by others (mode %04o): the token is no secret; chmod 600 it", file, perm)
	case perm&0o040 != 0:
		fi, err := os.Stat(file)
		if err != nil {
			return err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || st.Uid != 0 {
			return fmt.Errorf("%s is readable by its group (mode %04o) and not owned by root: chmod 600 it (a group-readable token file must be owned by root, as a mounted secret is)", file, perm)
		}
	}
	return nil
}
