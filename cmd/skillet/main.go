// Command skillet discovers, shows, checks and serves Agent Skills.
// Run "skillet --help" for the commands.
package main

import (
	"os"

	"github.com/skillet-go/skillet/internal/cli"
	_ "github.com/skillet-go/skillet/internal/startstack" // the main goroutine's stack grown once, first
)

func main() { os.Exit(cli.Main()) }
