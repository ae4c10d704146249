package agent

// Shorten is shorten, for the external tests.
var Shorten = shorten
