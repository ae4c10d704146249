package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// VersionOptions are the dependencies of skillet version.
type VersionOptions struct {
	IO *IO
	// BuildInfo reads the build's module and VCS settings
	// (runtime/debug.ReadBuildInfo).
	BuildInfo func() (*debug.BuildInfo, bool)
}

// NewCmdVersion returns skillet version. Its RunE calls runF, or
// versionRun when runF is nil.
func NewCmdVersion(f *Factory, runF func(context.Context, *VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{IO: f.IO, BuildInfo: debug.ReadBuildInfo}
	return &cobra.Command{
		Use:   "version",
		Short: "Print skillet's version, the Go version it was built with, and its source revision",
		Long: `Print skillet's version: the module version (for a build from a git
checkout, the pseudo-version Go derives from the commit, such as
v0.0.0-20261201134557-2d604659ea3e, with +dirty when the tree had changes;
devel when the build recorded no version), the Go toolchain it was built
with, the operating system and architecture, and the source revision and
time when the build recorded them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return versionRun(cmd.Context(), opts)
		},
	}
}

func versionRun(_ context.Context, opts *VersionOptions) error {
	out := opts.IO.Out
	bi, ok := opts.BuildInfo()
	fmt.Fprintf(out, "skillet %s\n", moduleVersion(bi, ok))
	fmt.Fprintf(out, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if !ok {
		return nil
	}
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
		fmt.Fprintf(out, "revision: %s%s %s\n", rev, dirty, at)
	}
	return nil
}

// version is skillet's module version: a tag, the pseudo-version of a
// build from a git checkout, or "devel" when the build recorded none.
func version() string { return moduleVersion(debug.ReadBuildInfo()) }

func moduleVersion(bi *debug.BuildInfo, ok bool) string {
	if ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
