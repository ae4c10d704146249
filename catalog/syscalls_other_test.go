//go:build !linux || !(amd64 || arm64)

package catalog

import "testing"

// noSyscallCount is why TestListSyscalls and BenchmarkListSyscalls skip:
// they count a listing's system calls by tracing a child with ptrace(2)
// (syscount_linux_test.go), which reads registers laid out per
// architecture.
const noSyscallCount = "system calls are counted with ptrace(2) on linux/amd64 and linux/arm64 only"

func TestListSyscalls(t *testing.T) { t.Skip(noSyscallCount) }

func BenchmarkListSyscalls(b *testing.B) { b.Skip(noSyscallCount) }
