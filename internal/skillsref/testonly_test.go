package skillsref

import "errors"

// What only the tests call: reference implementations the tests hold the
// package's code to, and helpers of the tests, moved out of the package's
// non-test files.

// IsError reports whether err is a reference-tool error (exit 1) rather
// than an unexpected failure.
func IsError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
