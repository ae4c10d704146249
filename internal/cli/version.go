package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print skillet's version, the Go version it was built with, and its source revision",
		Long: `Print skillet's version: the module version (devel for a build from a
checkout), the Go toolchain it was built with, the operating system and
architecture, and the source revision and time when the build recorded them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(io.Out, "skillet %s\n", version())
			fmt.Fprintf(io.Out, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
			if bi, ok := debug.ReadBuildInfo(); ok {
				var rev, at, dirty string
				for _, s := range bi.Settings {
					switch s.Key {
					case "vcs.revision":
						rev = s.Value
					case "vcs.time":
						at = s.Value
					case "vcs.modified":
						if s.Value == "true" {
							dirty = " (modified)"
						}
					}
				}
				if rev != "" {
					fmt.Fprintf(io.Out, "revision: %s%s %s\n", rev, dirty, at)
				}
			}
			return nil
		},
	}
}
