// Command skillet discovers, shows, checks and serves Agent Skills.
// Run "skillet --help" for the commands.
package main

import (
	"os"

	"github.com/skillet-go/skillet/internal/cli"
)

func main() { os.Exit(cli.Main()) }
