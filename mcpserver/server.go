package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
	"github.com/skillet-go/skillet/skill"
)

// Options configure [New]. A nil *Options means the zero value; every zero
// field takes the default given beside it.
type Options struct {
	// Name and Version are the serverInfo sent to clients (default
	// "skillet" and "devel").
	Name    string
	Version string
	// Logger receives the server's log (reloads, diagnostics, requests at
	// debug level). Nil discards it. The SDK's own log goes to the same
	// logger, at warning level and above unless the logger is enabled for
	// debug.
	Logger *slog.Logger
	// Tool says when the load tool is offered (default [ToolAuto]).
	Tool ToolMode
	// InstructionsChars is the budget of the instructions, in characters
	// as clients count them (UTF-16 code units); default
	// 4,000, negative for none. The catalog's
	// catalogBudgetChars applies when smaller.
	InstructionsChars int
	// PageSize is how many entries one skills/list page holds (default
	// 100); directory listings hold five times as many.
	PageSize int
	// CacheTTL is the freshness hint (ttlMs) of skills/list, skills/get,
	// resources/list and resources/read results on protocol 2026-07-28
	// (default 60 s; negative means 0, "immediately stale").
	CacheTTL time.Duration
	// MaxFileBytes is the size of the largest file served (default 16 MiB,
	// the extension's per-skill limit). A larger file is left out with a
	// file-not-served diagnostic, and its skill leaves skills/list since
	// its manifest would be incomplete.
	MaxFileBytes int64
	// MaxFiles bounds the files served per skill (default
	// 10,000).
	MaxFiles int
	// MaxServedBytes is the server's one memory budget (docs/serving.md#memory),
	// default 256 MiB: the bytes of all served files together,
	// counted as they are sent (a hard link or a sparse file counts its
	// full size each time it is served), the files a reload reads beside
	// them, and the answers being written. Files past it are not read;
	// they are listed and answered as too large, and their skill leaves
	// skills/list. A reload whose new files do not fit beside the served
	// ones keeps the last good snapshot; an answer that does not fit is
	// refused (-32603), to be retried.
	MaxServedBytes int64
	// Debounce is how long [Server.Watch] waits after the last change on
	// disk before it reloads (default 200 ms).
	Debounce time.Duration
	// PollInterval is how often [Server.Watch] reloads when file system
	// notifications are unavailable or failed, or always when Poll is set
	// (default 2 s).
	PollInterval time.Duration
	// Poll makes [Server.Watch] poll even where notifications work.
	Poll bool
	// ShutdownTimeout bounds how long [Server.Run] and [Server.Serve] wait
	// for requests in flight once their context is done (default 10 s).
	ShutdownTimeout time.Duration
}

// defaultMaxServedBytes is the default memory budget of served files,
// which fits a small container.
const defaultMaxServedBytes = 256 << 20

// ToolMode says when the load tool is in tools/list.
type ToolMode string

// Tool modes (docs/mcp.md layer 3; docs/mcp.md#skills-extension).
const (
	// ToolAuto offers the tool to clients that do not advertise the Skills
	// Extension in their capabilities: those that do load skills through
	// skills/list and resources/read themselves.
	ToolAuto ToolMode = "auto"
	// ToolAlways offers the tool to every client.
	ToolAlways ToolMode = "always"
	// ToolNever offers no tool.
	ToolNever ToolMode = "never"
)

// ParseToolMode parses "auto", "always" or "never" ("" is auto).
func ParseToolMode(s string) (ToolMode, bool) {
	switch ToolMode(s) {
	case "", ToolAuto:
		return ToolAuto, true
	case ToolAlways, ToolNever:
		return ToolMode(s), true
	}
	return "", false
}

// Defaults returns what a nil *Options and a nil *HTTPOptions mean: every
// zero field set to the value [New] and [Server.Handler] use (512
// connections, 1,024 sessions, 30-minute sessions, 4,000 characters of
// instructions, 256 MiB of served files, ...), for a command line to show
// as its flags' defaults.
func Defaults() (Options, HTTPOptions) {
	var o *Options
	var h *HTTPOptions
	return o.withDefaults(), h.withDefaults()
}

func (o *Options) withDefaults() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.Name == "" {
		r.Name = "skillet"
	}
	if r.Version == "" {
		r.Version = "devel"
	}
	if r.Logger == nil {
		r.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if r.Tool == "" {
		r.Tool = ToolAuto
	}
	zeroDefault(&r.InstructionsChars, defaultInstructionsChars)
	orDefault(&r.PageSize, 100)
	zeroDefault(&r.CacheTTL, 60*time.Second)
	orDefault(&r.MaxFileBytes, skillsext.MaxSkillBytes)
	orDefault(&r.MaxServedBytes, defaultMaxServedBytes)
	orDefault(&r.MaxFiles, catalogx.DefaultFileLimit)
	orDefault(&r.Debounce, 200*time.Millisecond)
	orDefault(&r.PollInterval, 2*time.Second)
	orDefault(&r.ShutdownTimeout, 10*time.Second)
	return r
}

// orDefault sets *v to def when it is 0 or negative (unset).
func orDefault[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// zeroDefault sets *v to def when it is 0 (unset) and to 0 when it is
// negative (turned off).
func zeroDefault[T int | int64 | time.Duration](v *T, def T) {
	switch {
	case *v == 0:
		*v = def
	case *v < 0:
		*v = 0
	}
}

// Server serves the skills of a catalog over MCP. Make one with [New],
// then connect clients with [Server.Run] (one session, for example stdio),
// [Server.Serve] (streamable HTTP) or through [Server.MCP]. A Server is
// safe for concurrent use.
type Server struct {
	// noFastPath turns the stateless read fast path off (tests compare
	// the two); fastHits counts the requests it answered.
	noFastPath bool
	fastHits   atomic.Int64
	// metas remembers the _meta objects the fast path took (a client's
	// is the same in each of its requests), whatever the snapshot.
	metas metaMemo
	// patches counts the snapshots built by patching the last one
	// (buildEdited); only reloads (one at a time) touch it.
	patches int

	cat  *catalog.Catalog
	opts Options
	log  *slog.Logger
	mcp  *mcp.Server
	// sdkLog is the logger the SDK writes to: warnings and up unless the
	// server logs at debug level.
	sdkLog *slog.Logger

	// mu orders requests against reloads: a request that reads skills
	// holds it shared, a reload holds it exclusively while it swaps the
	// snapshot and updates the SDK's lists, so every answer comes from one
	// snapshot.
	mu   sync.RWMutex
	snap atomic.Pointer[snapshot]

	reloadMu sync.Mutex      // one reload at a time
	logged   map[string]bool // diagnostics already logged (under reloadMu)
	// toolNotes are the clients told of in noteToolLeftOut.
	toolNotesMu sync.Mutex
	toolNotes   map[string]bool

	// watchPasses counts the reload passes of [Server.Watch], each with
	// the watches set after it.
	watchPasses passes

	tool *agent.Tool // the load tool (layer 3)

	// HTTP state, set by Handler and Serve.
	sessions       atomic.Pointer[sessionTable]
	conns          atomic.Pointer[connLimiter]
	bodyBytes      atomic.Int64 // request body bytes held now
	mem            memory       // the one memory budget (memory.go)
	streamsDropped atomic.Int64 // notification streams closed for not reading
	undelivered    undeliveredLog
	stopping       atomic.Bool // shutting down: /readyz says not ready
	metrics        *metrics
}

// New builds the server: it lists the catalog, reads every file of every
// skill and registers resources and prompts. The error is non-nil only when
// ctx is done; bad skills become diagnostics ([Server.Diagnostics]).
func New(ctx context.Context, cat *catalog.Catalog, opts *Options) (*Server, error) {
	s := &Server{cat: cat, opts: opts.withDefaults(), logged: map[string]bool{}}
	s.mem.max = s.opts.MaxServedBytes
	s.log = s.opts.Logger
	ttl := int(s.opts.CacheTTL / time.Millisecond)
	s.tool = s.newTool()
	caps := &mcp.ServerCapabilities{
		Resources: &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
		Prompts:   &mcp.PromptCapabilities{ListChanged: true},
	}
	if s.opts.Tool != ToolNever {
		caps.Tools = &mcp.ToolCapabilities{ListChanged: true}
	}
	caps.AddExtension(skillsext.ExtensionID, map[string]any{"directoryRead": true})
	sdkHandler := s.log.Handler()
	if !s.log.Enabled(ctx, slog.LevelDebug) {
		sdkHandler = &minLevel{h: sdkHandler, min: slog.LevelWarn}
	}
	s.undelivered.log = s.log
	s.sdkLog = slog.New(&undeliveredFilter{h: sdkHandler, u: &s.undelivered})
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: s.opts.Name, Version: s.opts.Version}, &mcp.ServerOptions{
		Capabilities: caps,
		Logger:       s.sdkLog,
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
			c.TTLMs, c.CacheScope = ttl, "public"
		},
		// Subscriptions are kept by the SDK; a reload sends
		// notifications/resources/updated for each changed file.
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	s.metrics = s.newMetrics()
	s.mcp.AddReceivingMiddleware(s.middleware)
	// Every served file is a resource of its own; the template tells a
	// client the shape of the URIs (SEP-2640, resource mapping).
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: fileTemplate,
		Name:        "skill-file",
		Title:       "A file of a skill",
		Description: "A file of the skill NAME at PATH, relative to its folder: skill://NAME/SKILL.md is its instructions.",
	}, s.readResource)
	for _, err := range []error{
		mcp.AddReceivingCustomMethod(s.mcp, skillsext.MethodListSkills, s.listSkills),
		mcp.AddReceivingCustomMethod(s.mcp, skillsext.MethodGetSkill, s.getSkill),
		mcp.AddReceivingCustomMethod(s.mcp, skillsext.MethodReadDirectory, s.readDirectory),
	} {
		if err != nil {
			return nil, fmt.Errorf("registering the Skills Extension: %w", err)
		}
	}
	if _, err := s.Reload(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// MCP returns the underlying SDK server, to connect other transports.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Diagnostics returns the catalog's diagnostics and the server's own
// (extension-excluded, extension-limit, file-not-served, reload-kept) as
// of the last reload.
func (s *Server) Diagnostics() []skill.Diagnostic {
	sn := s.snap.Load()
	return append(slices.Clone(sn.listing.Diagnostics), sn.diags...)
}

// Reload lists the catalog again, reads what changed and, when anything
// did, swaps in the new state and notifies connected clients:
// notifications/resources/list_changed when files were added, removed or
// changed, notifications/tools/list_changed (the tool goes out again with
// the name enum of the skills now), notifications/prompts/list_changed
// when prompts were added, removed or changed, and
// notifications/resources/updated for each changed file a client
// subscribed to. It reports whether anything changed. A skill whose file
// no longer loads keeps being served as it last loaded (reload-kept).
func (s *Server) Reload(ctx context.Context) (bool, error) { return s.reload(ctx, nil) }

// reload is Reload; with a hint (from file notifications), skills whose
// folder no changed path touches are taken from the last snapshot as they
// are, without a stat (see reloadHint).
func (s *Server) reload(ctx context.Context, hint *reloadHint) (bool, error) {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	prev := s.snap.Load()
	next, err := s.build(ctx, prev, hint)
	// Out of file descriptors (other clients, a burst of connections):
	// try again a little later rather than serve a snapshot with holes.
	for wait := 50 * time.Millisecond; err != nil && outOfFiles(err) && wait <= 800*time.Millisecond; wait *= 2 {
		s.log.Warn("reload ran out of file descriptors; retrying", "wait", wait, "error", err)
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(wait):
		}
		next, err = s.build(ctx, prev, nil)
	}
	if err != nil {
		if ctx.Err() == nil {
			s.metrics.failures.Inc()
		}
		if errors.Is(err, errOverBudget) {
			s.mem.overBudget.Add(1)
			s.log.Warn("reload stopped: the changed files do not fit the memory budget beside the skills served now; the last good snapshot is still served (give --max-served-bytes at least twice the skills' bytes)",
				"error", err)
		}
		return false, err
	}
	s.mem.settle(prev, next)
	defer func() { next.edits = nil }() // read by this reload alone (reloadMu)
	if next.edits == nil || !sameDiags(prev.listing.Diagnostics, next.listing.Diagnostics) || !sameDiags(prev.diags, next.diags) {
		s.logDiagnostics(next)
	}
	if prev != nil && same(prev, next) {
		// Keep the new listing (diagnostics may differ) without any
		// change clients can see.
		s.mu.Lock()
		s.snap.Store(next)
		s.mu.Unlock()
		return false, nil
	}
	if prev == nil {
		prev = &snapshot{byName: map[string]*served{}, files: map[string]*file{}}
	}
	var changed []string
	if next.edits != nil {
		changed = s.applyEdits(prev, next)
	} else {
		changed = s.apply(prev, next)
	}
	for _, uri := range changed {
		_ = s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
	}
	s.metrics.reloads.Inc()
	var added, removed, edited int
	if next.edits != nil {
		added, removed, edited = editCounts(next)
	} else {
		added, removed, edited = diffCounts(prev, next)
	}
	s.log.Info("skills loaded", "skills", len(next.skills), "skills_list", len(next.entries),
		"files", len(next.files), "added", added, "removed", removed, "changed", edited)
	return true, nil
}

// same reports whether two snapshots serve the same thing.
func same(a, b *snapshot) bool {
	if len(a.skills) != len(b.skills) || a.instructions != b.instructions || !sameTool(a.tool, b.tool) {
		return false
	}
	for i := range a.skills {
		if a.skills[i].fp != b.skills[i].fp {
			return false
		}
	}
	return true
}

// diffCounts counts the skills of next that prev did not serve, those of
// prev that next does not, and those both serve differently. A name is
// served once in a snapshot, so the removed are what the added leave.
func diffCounts(prev, next *snapshot) (added, removed, changed int) {
	for _, sv := range next.skills {
		switch old := prev.byName[sv.name]; {
		case old == nil:
			added++
		case old != sv && old.fp != sv.fp:
			changed++
		}
	}
	return added, len(prev.skills) - (len(next.skills) - added), changed
}

// apply swaps in next and brings the SDK's resource and prompt lists in
// line with it, under the exclusive lock, so no request sees a mix. The
// SDK sends the list_changed notifications. It returns the URIs of files
// whose content changed.
func (s *Server) apply(prev, next *snapshot) (changed []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// A skill served as the same value in both (reused whole by the
	// reload) has the same files: only the others' are compared.
	var gone []string
	for _, old := range prev.skills {
		if next.byName[old.name] == old {
			continue
		}
		for _, f := range old.files {
			if next.files[f.uri] == nil {
				gone = append(gone, f.uri)
			}
		}
	}
	if len(gone) > 0 {
		s.mcp.RemoveResources(gone...)
	}
	for _, sv := range next.skills {
		if prev.byName[sv.name] == sv {
			continue
		}
		for _, f := range sv.files {
			old := prev.files[f.uri]
			if old != nil && old.digest == f.digest && sameResource(old.resource, f.resource) {
				continue
			}
			// Added, or replaced because its bytes changed: either way
			// clients hear notifications/resources/list_changed.
			s.mcp.AddResource(f.resource, s.readResource)
			if old != nil {
				changed = append(changed, f.uri)
			}
		}
	}

	var goneNames []string
	for _, old := range prev.skills {
		if next.byName[old.name] == nil {
			goneNames = append(goneNames, old.name)
		}
	}
	if len(goneNames) > 0 {
		s.mcp.RemovePrompts(goneNames...)
	}
	for _, sv := range next.skills {
		old := prev.byName[sv.name]
		if old == sv {
			continue // the same prompt, if any
		}
		if old != nil && old.prompt != nil && sv.prompt == nil {
			goneNames = append(goneNames[:0], sv.name)
			s.mcp.RemovePrompts(goneNames...) // no longer user-invocable
		}
		if sv.prompt == nil {
			continue
		}
		if old != nil && samePrompt(old.prompt, sv.prompt) {
			continue
		}
		s.mcp.AddPrompt(sv.prompt, s.getPrompt)
	}
	// The tool goes out again on every change, so clients hear
	// notifications/tools/list_changed and see the name enum of the skills
	// served now.
	if next.tool != nil {
		s.mcp.AddTool(next.tool, s.callTool)
	}
	s.snap.Store(next)
	return changed
}

func sameTool(a, b *mcp.Tool) bool {
	if a == nil || b == nil {
		return a == b
	}
	as, _ := a.InputSchema.(json.RawMessage)
	bs, _ := b.InputSchema.(json.RawMessage)
	return a.Name == b.Name && a.Description == b.Description && bytes.Equal(as, bs)
}

func sameResource(a, b *mcp.Resource) bool {
	return a.URI == b.URI && a.Name == b.Name && a.Title == b.Title && a.Description == b.Description &&
		a.MIMEType == b.MIMEType && a.Size == b.Size
}

func samePrompt(a, b *mcp.Prompt) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Name != b.Name || a.Description != b.Description || a.Title != b.Title || len(a.Arguments) != len(b.Arguments) {
		return false
	}
	for i := range a.Arguments {
		if *a.Arguments[i] != *b.Arguments[i] {
			return false
		}
	}
	return true
}

// logDiagnostics logs each diagnostic once: the server's own as warnings,
// the catalog's errors (skills that are not served), and a count of the
// catalog's warnings.
func (s *Server) logDiagnostics(sn *snapshot) {
	warnings := 0
	for _, d := range sn.listing.Diagnostics {
		if d.Code == diagcode.IndexUntrusted {
			// Not about a skill: about what another user could forge.
			if key := d.String(); !s.logged[key] {
				s.logged[key] = true
				s.log.Warn(string(d.Code), "diagnostic", key)
			}
			continue
		}
		if d.Severity != skill.SeverityError {
			warnings++
			continue
		}
		if key := d.String(); !s.logged[key] {
			s.logged[key] = true
			s.log.Warn("catalog error", "diagnostic", key)
		}
	}
	for _, d := range sn.diags {
		if key := d.String(); !s.logged[key] {
			s.logged[key] = true
			s.log.Warn(string(d.Code), "skill", d.Skill, "diagnostic", key)
		}
	}
	if key := fmt.Sprintf("catalog-warnings:%d", warnings); warnings > 0 && !s.logged[key] {
		s.logged[key] = true
		s.log.Info("catalog warnings (run skillet lint for each)", "warnings", warnings)
	}
}

// readResource answers resources/read for a served file from the current
// snapshot. The SDK only calls it for registered URIs; a file removed by a
// reload since is not found.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	c, _, err := contents(s.current(ctx), req.Params.URI)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}

// contents is what resources/read returns of a served file, and the file:
// through the SDK (readResource) and on the stateless fast path (fastRead)
// alike.
func contents(sn *snapshot, uri string) (*mcp.ResourceContents, *file, error) {
	f := sn.files[uri]
	if f == nil {
		return nil, nil, mcp.ResourceNotFoundError(uri)
	}
	c := &mcp.ResourceContents{URI: f.uri, MIMEType: f.mime}
	if f.isText() {
		c.Text = f.text
	} else {
		c.Blob = f.blob
	}
	return c, f, nil
}

// invalidParams is the JSON-RPC error -32602.
func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// minLevel drops records below a level.
type minLevel struct {
	h   slog.Handler
	min slog.Level
}

func (m *minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.h.Enabled(ctx, l)
}
func (m *minLevel) Handle(ctx context.Context, r slog.Record) error { return m.h.Handle(ctx, r) }
func (m *minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return &minLevel{h: m.h.WithAttrs(as), min: m.min}
}
func (m *minLevel) WithGroup(g string) slog.Handler {
	return &minLevel{h: m.h.WithGroup(g), min: m.min}
}
