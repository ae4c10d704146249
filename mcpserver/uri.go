package mcpserver

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// scheme is the URI scheme of served skill files: skill://NAME/PATH
// (SEP-2640 (docs/mcp.md#skills-extension) Mapping).
const scheme = "skill"

const schemePrefix = scheme + "://"

// fileTemplate is the URI template (RFC 6570) of every served file,
// offered by resources/templates/list.
const fileTemplate = "skill://{name}/{+path}"

// Errors of URI and cursor parsing; handlers turn them into JSON-RPC
// errors with code -32602 (invalid params). Test with errors.Is.
var (
	// errInvalidURI: the URI is not a canonical skill:// URI of this
	// server (another scheme, no skill name, "..", an encoded "/", a query,
	// a spelling other than the canonical one...).
	errInvalidURI = errors.New("invalid skill URI")
	// errInvalidCursor: the pagination cursor was not made by this server.
	errInvalidCursor = errors.New("invalid cursor")
)

// nameRule is the loosest name the catalog serves ([a-z0-9][a-z0-9._-]*,
// docs/format.md#names): every such name is an RFC 3986 reg-name, so it sits in
// the URI authority unencoded.
var nameRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`) })

// skillURI returns the canonical URI of a file of the named skill: skill://NAME
// followed by each segment of rel percent-encoded as a URI path segment
// (url.PathEscape: "a b.md" becomes "a%20b.md"). rel is relative to the
// skill folder with "/" separators; "" gives the skill's root directory
// skill://NAME (no trailing slash, SEP-2640 (docs/mcp.md#skills-extension) Mapping).
// A plugin's skill PLUGIN:NAME is at skill://PLUGIN/NAME: the plugin is
// the URI's prefix and the last segment of the skill path is the skill's
// own name, as the extension asks (docs/mcp.md#plugin-skills).
func skillURI(name, rel string) string {
	name = strings.Replace(name, ":", "/", 1)
	if rel == "" {
		return schemePrefix + name
	}
	var b strings.Builder
	b.WriteString(schemePrefix)
	b.WriteString(name)
	for seg := range strings.SplitSeq(rel, "/") {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(seg))
	}
	return b.String()
}

// parseURI splits a canonical skill:// URI into the skill name and the
// file path relative to the skill folder ("/" separators; "" for the
// skill's root directory skill://NAME). It accepts exactly the spelling
// skillURI produces, so a client compares manifest URIs as plain strings:
// another scheme, a missing or malformed skill name, an empty segment
// (as in an absolute path skill://NAME//etc), "." or ".." (plain or
// percent-encoded), an encoded "/" or "\", a NUL, a query or fragment,
// and any other percent-encoding than url.PathEscape's are refused with
// an error wrapping errInvalidURI. A URI of a plugin's skill,
// skill://PLUGIN/NAME/PATH, parses as the name PLUGIN and the path
// NAME/PATH: which is meant depends on the skills served, and [Server]
// takes it as the skill PLUGIN:NAME when it serves one
// (docs/mcp.md#plugin-skills).
func parseURI(uri string) (name, rel string, err error) {
	bad := func(why string) (string, string, error) {
		return "", "", fmt.Errorf("%w %q: %s", errInvalidURI, clipURI(uri), why)
	}
	rest, ok := strings.CutPrefix(uri, schemePrefix)
	if !ok {
		scheme, _, found := strings.Cut(uri, ":")
		if !found || scheme == "" || strings.ContainsAny(scheme, "/?#") {
			return bad("not an absolute URI; this server serves skill://NAME/PATH")
		}
		return bad(fmt.Sprintf("unknown scheme %q; this server serves skill://NAME/PATH", scheme))
	}
	if strings.ContainsAny(rest, "?#") {
		return bad("a query or fragment is not part of a skill URI")
	}
	name, path, hasPath := strings.Cut(rest, "/")
	if name == "" {
		return bad("no skill name (skill://NAME/PATH)")
	}
	if !nameRule().MatchString(name) {
		return bad("the skill name must match [a-z0-9][a-z0-9._-]*")
	}
	if !hasPath {
		return name, "", nil
	}
	segs := strings.Split(path, "/")
	canonical := true
	for i, raw := range segs {
		seg, err := url.PathUnescape(raw)
		switch {
		case err != nil:
			return bad("malformed percent-encoding")
		case seg == "":
			return bad("empty path segment (absolute paths and trailing slashes are not skill files)")
		case seg == "." || seg == "..":
			return bad("\".\" and \"..\" segments cannot leave or name the skill folder")
		case strings.ContainsAny(seg, "/\\\x00"):
			return bad("a path segment holds \"/\", \"\\\" or NUL, percent-encoded or not")
		case url.PathEscape(seg) != raw:
			canonical = false
		}
		segs[i] = seg
	}
	rel = strings.Join(segs, "/")
	if !canonical {
		// Named only once every segment is known to be valid, so the
		// suggestion is the whole canonical URI of the same file.
		return bad("not the canonical spelling; the file's URI is " + clipURI(skillURI(name, rel)))
	}
	return name, rel, nil
}

// clipURI shortens a URI quoted in an error message.
func clipURI(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

// Cursors are opaque to clients (MCP pagination): base64url of a version
// tag and the last key returned. Paging by key rather than offset keeps
// pages stable across a reload: an entry added or removed between two
// pages shifts nothing else.
const cursorTag = "k1:"

var cursorEncoding = base64.RawURLEncoding.Strict()

// encodeCursor returns the cursor that resumes a listing after key.
func encodeCursor(key string) string {
	return cursorEncoding.EncodeToString([]byte(cursorTag + key))
}

// decodeCursor returns the key a cursor resumes after. "" is the first
// page. An error wraps errInvalidCursor.
func decodeCursor(c string) (string, error) {
	if c == "" {
		return "", nil
	}
	b, err := cursorEncoding.DecodeString(c)
	if err != nil {
		return "", fmt.Errorf("%w %q: not made by this server", errInvalidCursor, clipURI(c))
	}
	key, ok := strings.CutPrefix(string(b), cursorTag)
	// The decoder skips CR and LF; only the exact spelling this server
	// writes is a cursor of its own.
	if !ok || key == "" || encodeCursor(key) != c {
		return "", fmt.Errorf("%w %q: not made by this server", errInvalidCursor, clipURI(c))
	}
	return key, nil
}
