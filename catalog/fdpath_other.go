//go:build !linux

package catalog

import "os"

// openedPath returns the resolved path of an open file. Without /proc it
// resolves the file's name, which narrows but does not close the window
// for a symlink swapped in after the open.
func openedPath(f *os.File) (string, error) { return evalName(f) }
