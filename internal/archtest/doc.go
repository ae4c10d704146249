// Package archtest holds the tests that keep the repository's structure
// true to docs/ARCHITECTURE.md: the import arrows between packages, the
// single importer of the YAML library, and citations in code and help
// texts that point at files which exist. It has no code of its own.
package archtest
