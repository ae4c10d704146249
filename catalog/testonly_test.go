package catalog

import (
	"context"
	"strings"

	"github.com/skillet-go/skillet/skill"
)

// What only the tests call, moved out of the package's non-test files.

// listNamed is listNamedQ of name without the listing of every name: the
// listing of c narrowed to name, or nil. The tests of the narrowed read
// call it; the CLI and the load tool call listNamedOrNames.
func (c *Catalog) listNamed(ctx context.Context, name string, keep func(*skill.Diagnostic) bool) *Listing {
	l, _ := c.listNamedQ(ctx, &namedQuery{raw: name, name: strings.TrimSpace(name), keep: keep})
	return l
}
