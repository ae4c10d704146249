package mcpserver

import (
	"context"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// skillMethods are the requests answered from the skills: they run under
// the shared lock, so each answer comes from one snapshot.
var skillMethods = map[string]bool{
	"initialize": true, "server/discover": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"prompts/list": true, "prompts/get": true,
	"tools/list": true, "tools/call": true,
	MethodListSkills: true, MethodGetSkill: true, MethodReadDirectory: true,
}

// middleware runs every request the server receives.
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !skillMethods[method] {
			return next(ctx, method, req)
		}
		start := time.Now()
		s.mu.RLock()
		res, err := s.handle(ctx, next, method, req)
		s.mu.RUnlock()
		if s.log.Enabled(ctx, slog.LevelDebug) {
			s.log.Debug("request", "method", method, "duration", time.Since(start), "error", err)
		}
		return res, err
	}
}

func (s *Server) handle(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	if method == "resources/read" {
		if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok && p != nil {
			if err := s.checkReadURI(p.URI); err != nil {
				return nil, err
			}
		}
	}
	res, err := next(ctx, method, req)
	if err == nil && res != nil {
		s.decorate(method, req, res)
	}
	return res, err
}

// checkReadURI explains why a resources/read URI is refused, before the
// SDK's lookup answers a plain "Resource not found": a URI that is not
// canonical, a folder, or a file of no served skill.
func (s *Server) checkReadURI(uri string) error {
	name, rel, err := ParseURI(uri)
	if err != nil {
		return invalidParams("%v", err)
	}
	sv := s.snap.Load().byName[name]
	if sv == nil {
		return invalidParams("no skill %q is served (%s)", name, clipURI(uri))
	}
	if _, dir := sv.dirs[rel]; dir {
		return invalidParams("%s is a directory, not a file; list it with resources/directory/read", clipURI(uri))
	}
	if sv.byRel[rel] == nil {
		return invalidParams("the skill %q has no file %q (%s)", name, clipURI(rel), clipURI(uri))
	}
	return nil
}
