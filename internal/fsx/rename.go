package fsx

import (
	"fmt"
	"os"
)

// renameChecked compares path with v and renames tmp over it. Without an
// exchange, an edit landing in the instant between the two is lost; this
// is the fallback where the file system has none.
func renameChecked(tmp, path string, v *Version) error {
	if !same(path, v) {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", path, ErrChanged)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
