//go:build unix

package cli

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own and has its context's
// end kill the whole group: an agent's MCP servers (skillet serve over
// stdio) and helpers share its output pipes, so killing the agent alone
// left them holding the pipes open and cmd.Wait waited out WaitDelay
// (5 s) for every agent stopped once its request was seen.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
