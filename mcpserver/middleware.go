package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// skillMethods are the requests answered from the skills. Each runs on
// the snapshot current when it arrived, pinned in its context, so each
// answer comes from one snapshot.
var skillMethods = map[string]bool{
	"initialize": true, "server/discover": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"prompts/list": true, "prompts/get": true,
	"tools/list": true, "tools/call": true,
	skillsext.MethodListSkills: true, skillsext.MethodGetSkill: true, skillsext.MethodReadDirectory: true,
}

// registryMethods are answered (or looked up) from the SDK's lists of
// resources and prompts, which a reload updates one by one: they hold the
// shared lock, so none sees a list half updated. Each is a lookup or a
// page, never a computation; tools/call, which may search, holds no lock
// a reload would wait for.
var registryMethods = map[string]bool{
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"prompts/list": true, "prompts/get": true, "tools/list": true,
}

// snapKey is the context key of the snapshot a request runs on.
type snapKey struct{}

// current returns the snapshot pinned in ctx by the middleware, else the
// latest.
func (s *Server) current(ctx context.Context) *snapshot {
	if sn, ok := ctx.Value(snapKey{}).(*snapshot); ok {
		return sn
	}
	return s.snap.Load()
}

// beforeHandle, when set (by tests), runs before a skill request is
// answered, with the locks the request holds.
var beforeHandle func(ctx context.Context, method string)

// middleware runs every request the server receives.
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !skillMethods[method] {
			start := time.Now()
			res, err := next(ctx, method, req)
			if !strings.HasPrefix(method, "notifications/") || method == "notifications/initialized" {
				s.metrics.observe(method, time.Since(start), err)
			}
			return res, err
		}
		if method == "initialize" {
			if t := s.sessions.Load(); t != nil {
				if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
					if err := t.add(ss, clientFrom(ctx)); err != nil {
						return nil, err
					}
				}
			}
		}
		start := time.Now()
		locked := registryMethods[method]
		if locked {
			s.mu.RLock()
		}
		ctx = context.WithValue(ctx, snapKey{}, s.snap.Load())
		if beforeHandle != nil {
			beforeHandle(ctx, method)
		}
		res, err := s.handle(ctx, next, method, req)
		if locked {
			s.mu.RUnlock()
		}
		s.metrics.observe(method, time.Since(start), err)
		if s.log.Enabled(ctx, slog.LevelDebug) {
			s.log.Debug("request", "method", method, "duration", time.Since(start), "error", err)
		}
		return res, err
	}
}

func (s *Server) handle(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	if method == "resources/read" {
		if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok && p != nil {
			if err := s.checkReadURI(ctx, p.URI); err != nil {
				return nil, err
			}
			if f := s.current(ctx).files[p.URI]; f != nil {
				if err := s.chargeAnswer(ctx, f.size, true); err != nil {
					return nil, err
				}
			}
		}
	}
	res, err := next(ctx, method, req)
	if err == nil && res != nil {
		s.decorate(ctx, method, req, res)
		if !requestNewProtocol(req) {
			res = withoutCacheFields(res)
		}
	}
	return res, err
}

// checkReadURI explains why a resources/read URI is refused, before the
// SDK's lookup answers a plain "Resource not found": a URI that is not
// canonical, a folder, or a file of no served skill.
func (s *Server) checkReadURI(ctx context.Context, uri string) error {
	name, rel, err := parseURI(uri)
	if err != nil {
		return invalidParams("%v", err)
	}
	sn := s.current(ctx)
	name, rel = sn.resolve(name, rel)
	sv := sn.byName[name]
	if why, ok := sn.tooLarge[name]; ok && sv == nil {
		return tooLarge(uri, why)
	}
	if sv == nil {
		return invalidParams("no skill %q is served (%s)", name, clipURI(uri))
	}
	if why, ok := sv.tooLarge[rel]; ok {
		return tooLarge(uri, why)
	}
	if _, dir := sv.dirs[rel]; dir {
		return invalidParams("%s is a directory, not a file; list it with resources/directory/read", clipURI(uri))
	}
	if sv.byRel[rel] == nil {
		return invalidParams("the skill %q has no file %q (%s)", name, clipURI(rel), clipURI(uri))
	}
	return nil
}

// requestNewProtocol reports whether req speaks protocol 2026-07-28 or
// later.
func requestNewProtocol(req mcp.Request) bool {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	var meta mcp.Meta
	if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
		meta = p.GetMeta()
	}
	return newProtocol(ss, meta)
}

// codeTooLarge is the JSON-RPC error code of a resource the server holds
// but does not serve for its size or the server's memory budget
// (docs/serving.md#limits): never "not found".
const codeTooLarge = -32603

func tooLarge(uri, why string) error {
	return &jsonrpc.Error{Code: codeTooLarge, Message: fmt.Sprintf("%s is too large to serve: %s", clipURI(uri), why)}
}
