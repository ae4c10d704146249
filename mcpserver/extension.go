package mcpserver

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// newFields is the one place that decides which protocol's fields an MCP
// result carries: it reports whether a result for a request of protocol
// version carries those protocol 2026-07-28 added (SEP-2575, SEP-2549):
// resultType "complete", the server's identity in _meta and, on cacheable
// results, ttlMs and cacheScope. A result for an earlier protocol carries
// none of them (the SDK writes the cache fields whatever the protocol:
// withoutCacheFields drops them, docs/upstream/go-sdk-cache-fields.md).
// The middleware, the extension's methods and the HTTP fast path all ask
// it.
func newFields(version string) bool { return version >= skillsext.ProtocolCacheable }

// newProtocol reports whether a result for the request carries protocol
// 2026-07-28's fields (newFields), for the version the request speaks
// (requestVersion).
func newProtocol(ss *mcp.ServerSession, meta mcp.Meta) bool {
	return newFields(requestVersion(ss, meta))
}

// requestVersion is the protocol version a request speaks: its own _meta's
// (the sessionless protocol, SEP-2575), else the one its session
// negotiated, else "". A session that began with initialize never
// negotiates 2026-07-28, which has no initialize: the SDK answers a client
// asking for it (or anything later) with 2025-11-25, so the version the
// client asked for, in its InitializeParams, is not the session's.
func requestVersion(ss *mcp.ServerSession, meta mcp.Meta) string {
	if v, ok := meta[mcp.MetaKeyProtocolVersion].(string); ok {
		return v
	}
	if ss != nil {
		if ip := ss.InitializeParams(); ip != nil {
			return negotiated(ip.ProtocolVersion)
		}
	}
	return ""
}

// negotiated is the version a session begun with initialize for the
// client's version speaks: the client's when it is before 2026-07-28,
// else 2025-11-25, as the SDK answers (initialize is not part of
// 2026-07-28). A version the SDK does not know never reaches here as
// 2026-07-28 or later.
func negotiated(client string) string {
	if client < skillsext.ProtocolCacheable {
		return client
	}
	return "2025-11-25"
}

// cache returns the resultType, ttlMs and cacheScope of a cacheable
// extension result: set on protocol 2026-07-28 and later, empty before
// (docs/mcp.md#skills-extension).
func (s *Server) cache(ss *mcp.ServerSession, meta mcp.Meta) (string, *int, string) {
	if !newProtocol(ss, meta) {
		return "", nil, ""
	}
	ttl := int(s.opts.CacheTTL / time.Millisecond)
	return "complete", &ttl, "public"
}

// listSkills answers skills/list: entries sorted by URI, PageSize per page.
func (s *Server) listSkills(ctx context.Context, ss *mcp.ServerSession, p *skillsext.ListSkillsParams) (*skillsext.ListSkillsResult, error) {
	var cursor string
	var meta mcp.Meta
	if p != nil {
		cursor, meta = p.Cursor, p.Meta
	}
	after, err := decodeCursor(cursor)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	entries := s.current(ctx).entries
	i := sort.Search(len(entries), func(i int) bool { return entries[i].uri > after })
	end := min(i+s.opts.PageSize, len(entries))
	res := &skillsext.ListSkillsResult{Skills: make([]*skillsext.SkillEntry, 0, end-i)}
	for _, sv := range entries[i:end] {
		res.Skills = append(res.Skills, sv.entry)
	}
	if end < len(entries) {
		res.NextCursor = encodeCursor(entries[end-1].uri)
	}
	res.ResultType, res.TTLMs, res.CacheScope = s.cache(ss, meta)
	return res, nil
}

// getSkill answers skills/get for the URI of a served skill's SKILL.md.
func (s *Server) getSkill(ctx context.Context, ss *mcp.ServerSession, p *skillsext.GetSkillParams) (*skillsext.GetSkillResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("skills/get needs the uri of a skill's SKILL.md")
	}
	name, rel, err := parseURI(p.URI)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	sn := s.current(ctx)
	name, rel = sn.resolve(name, rel)
	sv := sn.byName[name]
	switch why, big := sn.tooLarge[name]; {
	case sv == nil && big:
		return nil, tooLarge(p.URI, why)
	case sv == nil:
		return nil, invalidParams("no skill is served at %s", p.URI)
	case rel != skillFile:
		return nil, invalidParams("%s is not a skill: a skill is named by the URI of its SKILL.md, %s", p.URI, sv.uri)
	case sv.entry == nil:
		return nil, invalidParams("the skill %s is not served through the Skills Extension: %s (read it with resources/read)", p.URI, sv.excluded)
	}
	res := &skillsext.GetSkillResult{Skill: sv.entry}
	res.ResultType, res.TTLMs, res.CacheScope = s.cache(ss, p.Meta)
	return res, nil
}

// readDirectory answers resources/directory/read: the direct children of
// a folder of a served skill, PageSize*5 per page.
func (s *Server) readDirectory(ctx context.Context, ss *mcp.ServerSession, p *skillsext.ReadDirectoryParams) (*skillsext.ReadDirectoryResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("resources/directory/read needs the uri of a directory")
	}
	after, err := decodeCursor(p.Cursor)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	name, rel, err := parseURI(strings.TrimSuffix(p.URI, "/"))
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	sn := s.current(ctx)
	name, rel = sn.resolve(name, rel)
	sv := sn.byName[name]
	if sv == nil {
		return nil, invalidParams("no skill is served at %s", p.URI)
	}
	children, ok := sv.dirs[rel]
	if !ok {
		if sv.byRel[rel] != nil {
			return nil, invalidParams("%s is not a directory resource", p.URI)
		}
		return nil, invalidParams("%s is not a directory of the skill %q", p.URI, name)
	}
	i := sort.Search(len(children), func(i int) bool { return children[i].URI > after })
	end := min(i+s.opts.PageSize*5, len(children))
	res := &skillsext.ReadDirectoryResult{Resources: children[i:end:end]}
	if end < len(children) {
		res.NextCursor = encodeCursor(children[end-1].URI)
	}
	if newProtocol(ss, p.Meta) {
		res.ResultType = "complete"
	}
	return res, nil
}
