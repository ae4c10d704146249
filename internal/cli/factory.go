package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
)

// catx are catalog's hooks for the commands (internal/catalogx), typed.
var catx = catalogx.Get[catalog.Catalog, catalog.Options, catalog.Listing, catalog.Skill, catalog.File]()

// Factory holds what every command shares: the IO streams and the global
// flags. A command's constructor (NewCmdList, NewCmdShow, ...) copies from
// it only functions and streams; the functions read the flags and open the
// catalog when the command runs, so building a command does no work.
type Factory struct {
	IO    *IO
	flags globals
}

// NewFactory returns the Factory of one invocation, writing to io.
func NewFactory(io *IO) *Factory { return &Factory{IO: io} }

// globals are the flags every command shares.
type globals struct {
	workspace string
	roots     []string
	preset    string
	noUser    bool
	strict    bool
	config    string
	quiet     bool
	noCache   bool
}

// Config returns the catalog options the global flags describe. A
// --workspace or --root that does not exist is a usage error: it was named
// on purpose, so it is most likely a typo.
func (f *Factory) Config() (*catalog.Options, error) {
	g := &f.flags
	if g.workspace != "" {
		fi, err := os.Stat(g.workspace)
		switch {
		case err != nil:
			return nil, usagef("--workspace %s: no such folder", g.workspace)
		case !fi.IsDir():
			return nil, usagef("--workspace %s: not a folder", g.workspace)
		}
	}
	home, _ := os.UserHomeDir()
	for _, r := range g.roots {
		p := r
		if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
			p = filepath.Join(home, strings.TrimPrefix(p[1:], "/"))
		}
		if _, err := os.Stat(p); err != nil {
			return nil, usagef("--root %s: no such file or folder", r)
		}
	}
	return &catalog.Options{
		Workspace:  g.workspace,
		ConfigFile: g.config,
		Preset:     g.preset,
		ExtraPaths: g.roots,
		NoUser:     g.noUser,
		Strict:     g.strict,
	}, nil
}

// Catalog opens the catalog the global flags describe.
func (f *Factory) Catalog(ctx context.Context) (*catalog.Catalog, error) {
	return f.open(ctx, "")
}

// IndexedCatalog is Catalog with the persistent index of the user cache
// folder (docs/performance.md#persistent-index), for the commands that are
// about one skill or only need the listing: show, search, prompt,
// tool-schema, serve and shell completion. --no-cache leaves it out.
func (f *Factory) IndexedCatalog(ctx context.Context) (*catalog.Catalog, error) {
	index := ""
	if !f.flags.noCache {
		if dir, err := os.UserCacheDir(); err == nil {
			index = filepath.Join(dir, "skillet", "index")
		}
	}
	return f.open(ctx, index)
}

func (f *Factory) open(ctx context.Context, index string) (*catalog.Catalog, error) {
	opts, err := f.Config()
	if err != nil {
		return nil, err
	}
	catx.UseIndex(opts, index)
	catx.WalkGC(opts, walkGC)
	return catalog.New(ctx, opts)
}

// Quiet reports whether -q/--quiet was given.
func (f *Factory) Quiet() bool { return f.flags.quiet }
