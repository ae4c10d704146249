//go:build !unix

package mcpserver

// writePaced is writeChunks where the system has no write system call
// that takes part of a buffer (pace_unix.go).
func (c *paceConn) writePaced(p []byte) (int, error) { return c.writeChunks(p) }
