package fsx

import "crypto/sha256"

// What only the tests call: reference implementations the tests hold the
// package's code to, and helpers of the tests, moved out of the package's
// non-test files.

// Equal reports whether data is the content v was taken of.
func (v *Version) Equal(data []byte) bool {
	return int64(len(data)) == v.Size && sha256.Sum256(data) == v.Sum
}
