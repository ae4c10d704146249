package catalog

// HostVerdicts is hostVerdicts, for the external tests.
var HostVerdicts = hostVerdicts
