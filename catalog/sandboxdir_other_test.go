//go:build !linux

package catalog_test

import "testing"

// sandboxDir returns a new folder for the sandboxes of generated
// workspaces, removed when t ends (on Linux, a tmpfs when there is one).
func sandboxDir(t *testing.T) string { return t.TempDir() }
