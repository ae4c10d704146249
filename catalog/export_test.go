package catalog

// HostVerdicts is hostVerdicts, for the external tests.
var HostVerdicts = hostVerdicts

// The tests list with a probing helper (ahead.go) in every folder of two
// or more entries, so that every test that lists with Each (checkEach)
// runs over it; TestHeldFilesAgree compares it with none.
func init() { probeAheadMin = 2 }
