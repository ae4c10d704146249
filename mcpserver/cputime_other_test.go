//go:build !unix

package mcpserver

import "time"

// processCPU is not measured here: benchmarks leave out their CPU metrics.
func processCPU() time.Duration { return 0 }
