package catalog

import (
	"context"

	"github.com/skillet-go/skillet/internal/profile"
)

// HostVerdicts is hostVerdicts, for the external tests.
var HostVerdicts = hostVerdicts

// HostVerdict is hostVerdict, for the external tests.
type HostVerdict = hostVerdict

// HostVerdictsAll is hostVerdictsAll, for the external tests.
var HostVerdictsAll = hostVerdictsAll

// WithHome sets the test hooks of o: home as the home folder, and an
// environment with nothing set. It returns o.
func WithHome(o *Options, home string) *Options {
	o.home, o.getenv = home, func(string) string { return "" }
	return o
}

// hostVerdictsAll is hostVerdicts for each profile of ps, in order, made
// as hostFilesAll makes them for lint --compat (each folder listed and each file read once
// for all); the verdicts keep no parsed skill (Skill is nil).
// TestProfilesMatchRecordings compares them with the hosts' recordings,
// TestHostVerdictsAreHostList with hostVerdicts.
func hostVerdictsAll(ctx context.Context, ps []*profile.Profile, opts *Options) ([][]hostVerdict, error) {
	hs, err := searchHosts(ctx, ps, opts)
	if err != nil {
		return nil, err
	}
	hs.share = nil
	return hs.settled(), nil
}
