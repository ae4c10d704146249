//go:build !unix

package mcpserver

// writePaced is writeChunks off Unix: the one-call write of pace_unix.go
// calls the Unix write system call on the socket's descriptor.
func (c *paceConn) writePaced(p []byte) (int, error) { return c.writeChunks(p) }
