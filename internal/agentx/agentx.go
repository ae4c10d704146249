// Package agentx holds the hooks through which package mcpserver serves
// package agent's load tool from its own snapshot of the skills (see
// docs/ARCHITECTURE.md and docs/mcp.md), and skillet show from the listing
// it made (WithListing). They are not part of the public API: an agent
// built on package agent reads through its catalog.
package agentx

import (
	"context"
	"fmt"

	"github.com/skillet-go/skillet/catalog"
)

// Source gives the load tool a skill's body and bundled files; the
// catalog's Skill methods (Load, Files, ReadFile) are the default one.
type Source interface {
	// Load returns the skill's body.
	Load(ctx context.Context, s *catalog.Skill) (*catalog.Loaded, error)
	// Files lists the skill's files, SKILL.md included, sorted, with "/"
	// separators; more says some were left out.
	Files(ctx context.Context, s *catalog.Skill) (files []catalog.File, more bool, err error)
	// ReadFile returns a bundled file's bytes, at most limit of them
	// (errors wrap the catalog's sentinel errors).
	ReadFile(ctx context.Context, s *catalog.Skill, rel string, limit int64) ([]byte, error)
}

// ToolHooks changes where a load tool reads and what it tells the model;
// a nil field keeps the tool's default.
type ToolHooks struct {
	// WholeFile returns where a result says the whole skill file can be
	// read when its body was cut at maxSkillBytes (default: its absolute
	// path). The MCP server names the skill:// URI of its SKILL.md.
	WholeFile func(*catalog.Skill) string
	// Source is where calls read a skill's body and bundled files
	// (default: the disk, through the catalog). The MCP server passes its
	// snapshot, so every answer comes from the same bytes.
	Source Source
	// Listing returns the listing a call works on (default: the catalog's
	// List). The MCP server passes its snapshot's, kept current by its
	// file watcher.
	Listing func(ctx context.Context) (*catalog.Listing, error)
}

// SetToolHooks attaches h to opts before agent.NewTool; O is
// agent.ToolOptions (a type parameter: agent imports this package).
type SetToolHooks[O any] func(opts *O, h *ToolHooks)

// registered is the SetToolHooks package agent registered.
var registered any

// Register sets agent's SetToolHooks; package agent calls it once, when it
// is initialized, so the compiler checks it against agent.ToolOptions.
func Register[O any](set SetToolHooks[O]) { registered = set }

// Get returns the SetToolHooks package agent registered. The MCP server
// calls it once, when it is initialized (after agent, which it imports),
// as Get[agent.ToolOptions]; another type argument panics there, at the
// start of every program and test that links the server, never at a call.
func Get[O any]() SetToolHooks[O] {
	set, ok := registered.(SetToolHooks[O])
	if !ok {
		panic(fmt.Sprintf("agentx.Get: asked for %T, agent registered %T", set, registered))
	}
	return set
}

type listingKey struct{}

// WithListing returns a context under which the tool's Definition (its
// name enum) and Call use l instead of its Listing: the MCP server
// builds the definition for a snapshot before it swaps the snapshot in,
// and skillet show loads from the listing it has already made (over the
// persistent index, each List stats every path the index covers).
func WithListing(ctx context.Context, l *catalog.Listing) context.Context {
	return context.WithValue(ctx, listingKey{}, l)
}

// ListingFrom returns the listing WithListing put in ctx, or nil.
func ListingFrom(ctx context.Context) *catalog.Listing {
	l, _ := ctx.Value(listingKey{}).(*catalog.Listing)
	return l
}

type blockKey struct{}

// BlockListing is what the catalog block reads of a listing (catalogx's
// ListBrief): Listing's skills are the listing's Listed and hidden ones,
// NotListed the names of the others, in order.
type BlockListing struct {
	Listing   *catalog.Listing
	NotListed []string
}

// WithBlockListing returns a context under which agent.Wiring's Block
// renders b, as agent.RenderListing renders the listing b was made from,
// instead of listing its catalog: skillet prompt over the persistent
// index, which holds a name a skill and not the listing.
func WithBlockListing(ctx context.Context, b *BlockListing) context.Context {
	return context.WithValue(ctx, blockKey{}, b)
}

// BlockListingFrom returns the listing WithBlockListing put in ctx, or nil.
func BlockListingFrom(ctx context.Context) *BlockListing {
	b, _ := ctx.Value(blockKey{}).(*BlockListing)
	return b
}

type namesKey struct{}

// names is what WithNames puts in a context.
type names struct{ visible, hidden []string }

// WithNames returns a context under which the load tool's Definition
// reads its name enum from visible (the names of a listing's skills that
// are not hidden, in the listing's order), and its Call answers a name
// that neither visible nor hidden (the hidden skills' names) holds as a
// name no skill has, from visible (the nearest names and the first
// hundred), instead of listing: a listing holds a catalog.Skill of about
// 220 bytes a name (catalogx's Names: skillet tool-schema, and skillet
// show of an unknown name, at 100,000 skills). A listing WithListing
// put in the context comes first; any other call lists as it would.
func WithNames(ctx context.Context, visible, hidden []string) context.Context {
	return context.WithValue(ctx, namesKey{}, &names{visible, hidden})
}

// NamesFrom returns the names WithNames put in ctx; ok is false when it
// put none.
func NamesFrom(ctx context.Context) (visible, hidden []string, ok bool) {
	n, _ := ctx.Value(namesKey{}).(*names)
	if n == nil {
		return nil, nil, false
	}
	return n.visible, n.hidden, true
}
