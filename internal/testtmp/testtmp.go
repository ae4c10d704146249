// Package testtmp lays out the temporary folders of a package's tests
// (t.TempDir, os.MkdirTemp("", ...)) on a memory file system when the
// machine has one, where creating and removing the many small files and
// folders the tests generate costs a fraction of what it costs on a disk
// file system. A package's TestMain calls it:
//
//	func TestMain(m *testing.M) { os.Exit(testtmp.M(m).Run()) }
package testtmp

import (
	"os"
)

// minFree is the space, in bytes, the memory file system must have free
// for the tests to use it: a package's tests hold at most a few hundred
// megabytes of generated trees at a time.
const minFree = 1 << 30

// Runner is what runs a package's tests: *testing.M, and what
// testscript.Main takes.
type Runner interface{ Run() int }

// M returns m with a Run that runs m's tests with TMPDIR naming a new
// folder on a memory file system (Linux: /dev/shm when it is a tmpfs with
// minFree bytes free) and removes the folder after them, returning m.Run's
// exit code. A TMPDIR already set is kept, and without a memory file
// system the tests run in os.TempDir() as they would without M. The
// folders of earlier runs that ended without removing theirs (a panic, a
// timeout) are removed first.
func M(m Runner) Runner { return memRunner{m} }

type memRunner struct{ m Runner }

func (r memRunner) Run() int {
	if os.Getenv("TMPDIR") != "" {
		return r.m.Run()
	}
	dir := memDir()
	if dir == "" {
		return r.m.Run()
	}
	defer os.RemoveAll(dir)
	os.Setenv("TMPDIR", dir) // only fails on an invalid name or value
	return r.m.Run()
}
