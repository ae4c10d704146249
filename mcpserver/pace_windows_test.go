package mcpserver

import "syscall"

// smallBuffers sets a socket's receive and send buffers to 4 KiB, for
// pacedPair.
func smallBuffers(fd uintptr) {
	_ = syscall.SetsockoptInt(syscall.Handle(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
	_ = syscall.SetsockoptInt(syscall.Handle(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4096)
}
