//go:build !unix

package cli

import "io/fs"

// checkTokenPerm checks nothing where permission bits do not say who can
// read a file (Windows has access control lists instead).
func checkTokenPerm(string, fs.FileMode) error { return nil }
