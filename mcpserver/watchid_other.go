//go:build !unix

package mcpserver

import "io/fs"

// idOf is the folder's path: this system gives no inode, so two paths to
// one folder are watched apart.
func idOf(p string, _ fs.FileInfo) fileID { return fileID{path: p} }
