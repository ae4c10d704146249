package skill

import "github.com/skillet-go/skillet/internal/yamlx"

// What only the tests call: reference implementations the tests hold the
// package's code to, and helpers of the tests, moved out of the package's
// non-test files.

// fastFrontmatter is the fast reader (yamlx.FastBuf.Read) with nodes of
// its own.
func fastFrontmatter(text []byte) (*yamlx.Node, bool) {
	return new(yamlx.FastBuf).Read(text)
}
