//go:build unix

package mcpserver

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the test process has
// used so far, from getrusage(2); 0 when it cannot say.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
