// Package archtest holds the tests that keep the repository's structure
// true to docs/ARCHITECTURE.md: the import arrows between packages, the
// single importer of the YAML library, the public API's goldens (api.txt),
// the Go snippets of the pages, the modules a library user compiles and the
// packages the binary must not link, citations in code and help texts that
// point at files which exist, and the relative links of README.md and
// docs/. It has no code of its own.
package archtest
