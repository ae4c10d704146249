package catalog

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
