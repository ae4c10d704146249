//go:build !unix

package cli

import "os/exec"

// ownGroup leaves cmd as it is: process groups are a Unix notion (there
// the context's end kills the agent's whole group).
func ownGroup(*exec.Cmd) {}
