package catalog

// HostVerdicts is hostVerdicts, for the external tests.
var HostVerdicts = hostVerdicts

// WithHome sets the test hooks of o: home as the home folder, and an
// environment with nothing set. It returns o.
func WithHome(o *Options, home string) *Options {
	o.home, o.getenv = home, func(string) string { return "" }
	return o
}

// The tests list with a probing helper (ahead.go) in every folder of two
// or more entries, so that every test that lists with Each (checkEach)
// runs over it; TestHeldFilesAgree compares it with none. Its ring of
// results is three slots, so that it wraps around in every such folder.
func init() { probeAheadMin, probeRing = 2, 3 }
