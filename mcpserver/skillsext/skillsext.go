// Package skillsext is the SEP-2640 Skills Extension of MCP on the wire
// (docs/mcp.md#skills-extension): the extension's ID, its three methods
// and their parameters and results, the skill entry with its manifest, and
// the limits per skill. Package mcpserver answers with these types; a Go
// client registers them on its mcp.Client with Register and pages
// through a server's skills with Skills.
package skillsext

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The extension's ID and methods (docs/mcp.md#skills-extension; the
// stable extension page adds the cache fields to skills/get).
const (
	// ExtensionID is the extension's key in capabilities.extensions.
	ExtensionID = "io.modelcontextprotocol/skills"
	// MethodListSkills lists the skills served through the extension.
	MethodListSkills = "skills/list"
	// MethodGetSkill returns one skill entry by the URI of its SKILL.md.
	MethodGetSkill = "skills/get"
	// MethodReadDirectory lists the direct children of a directory
	// resource (declared by the directoryRead setting).
	MethodReadDirectory = "resources/directory/read"
)

// Limits per skill that hosts must accept and servers should not exceed
// (SEP-2640 (docs/mcp.md#skills-extension)). The server reports a skill over either limit and
// still serves it.
const (
	// MaxDescriptionChars is the longest description, in characters (code
	// points), a skills/list entry may carry: the specification's limit
	// (https://agentskills.io/specification#description-field), which
	// hosts and the official inspector's skills/list --verify check. A
	// skill with a longer one is left out of skills/list
	// (extension-excluded).
	MaxDescriptionChars = 1024
	MaxSkillFiles       = 512
	MaxSkillBytes       = 16 << 20 // 16 MiB, summed over the manifest's sizes
)

// ProtocolCacheable is the first protocol version whose results carry
// resultType, and whose skills/list and skills/get results carry ttlMs and
// cacheScope (base specification 2026-07-28, SEP-2549).
const ProtocolCacheable = "2026-07-28"

// ListSkillsParams are the parameters of skills/list.
type ListSkillsParams struct {
	mcp.ParamsBase
	// Cursor resumes a listing from a previous result's NextCursor.
	Cursor string `json:"cursor,omitempty"`
}

// ListSkillsResult is the result of skills/list: one page of entries,
// sorted by URI. An entry is never split across pages.
type ListSkillsResult struct {
	mcp.ResultBase
	Skills     []*SkillEntry `json:"skills"`
	NextCursor string        `json:"nextCursor,omitempty"`
	// ResultType, TTLMs and CacheScope are set on protocol 2026-07-28 and
	// later only ("complete", the freshness hint in milliseconds,
	// "public").
	ResultType string `json:"resultType,omitempty"`
	TTLMs      *int   `json:"ttlMs,omitempty"`
	CacheScope string `json:"cacheScope,omitempty"`
}

// GetSkillParams are the parameters of skills/get.
type GetSkillParams struct {
	mcp.ParamsBase
	// URI is the URI of the skill's SKILL.md.
	URI string `json:"uri"`
}

// GetSkillResult is the result of skills/get.
type GetSkillResult struct {
	mcp.ResultBase
	Skill      *SkillEntry `json:"skill"`
	ResultType string      `json:"resultType,omitempty"`
	TTLMs      *int        `json:"ttlMs,omitempty"`
	CacheScope string      `json:"cacheScope,omitempty"`
}

// ReadDirectoryParams are the parameters of resources/directory/read.
type ReadDirectoryParams struct {
	mcp.ParamsBase
	// URI is a directory: skill://NAME or skill://NAME/PATH, no trailing
	// slash.
	URI    string `json:"uri"`
	Cursor string `json:"cursor,omitempty"`
}

// ReadDirectoryResult lists the direct children of a directory: files as
// they appear in resources/list, folders with MIME type inode/directory.
type ReadDirectoryResult struct {
	mcp.ResultBase
	Resources  []*mcp.Resource `json:"resources"`
	NextCursor string          `json:"nextCursor,omitempty"`
	ResultType string          `json:"resultType,omitempty"`
}

// SkillEntry is one skill in skills/list and skills/get.
type SkillEntry struct {
	// URI is the URI of the skill's SKILL.md, readable with resources/read.
	URI string `json:"uri"`
	// Frontmatter is the SKILL.md frontmatter as a JSON object: every key
	// the author wrote, in source order, typed as a YAML 1.2 core parser
	// types it.
	Frontmatter json.RawMessage `json:"frontmatter"`
	// Resources is the complete manifest of the skill's files, SKILL.md
	// included.
	Resources Manifest `json:"resources"`

	// raw is the entry as JSON, encoded once when the server builds it, so
	// that every page of skills/list does not encode it again.
	raw json.RawMessage
}

// MarshalJSON writes the entry.
func (e *SkillEntry) MarshalJSON() ([]byte, error) {
	if e.raw != nil {
		return e.raw, nil
	}
	type plain SkillEntry // without this method
	return json.Marshal((*plain)(e))
}

// Seal encodes the entry once, so that every later MarshalJSON (each page
// of skills/list that holds it) writes the same bytes without encoding
// again. The entry must not change afterwards.
func (e *SkillEntry) Seal() error {
	raw, err := e.MarshalJSON()
	if err != nil {
		return err
	}
	e.raw = raw
	return nil
}

// Manifest is a skill's file list, or the marker "dynamic" for content
// generated on demand (SEP-2640 (docs/mcp.md#skills-extension)). This server always sends a
// complete list; Dynamic is there so a client can decode any server.
type Manifest struct {
	Files   []SkillResource
	Dynamic bool
}

// SkillResource is one file of a manifest: its URI, "sha256:" and 64
// lowercase hex digits over its raw bytes, and its size in bytes.
type SkillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// MarshalJSON writes the file list, or the string "dynamic".
func (m Manifest) MarshalJSON() ([]byte, error) {
	if m.Dynamic {
		return []byte(`"dynamic"`), nil
	}
	if m.Files == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(m.Files)
}

// UnmarshalJSON reads a file list or the string "dynamic"; anything else
// (null, another string, an object) is an error, as the extension says
// such an entry must not be loaded.
func (m *Manifest) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte(`"dynamic"`)) {
		*m = Manifest{Dynamic: true}
		return nil
	}
	if len(b) == 0 || b[0] != '[' {
		return fmt.Errorf("skill resources must be an array or \"dynamic\", not %.40s", b)
	}
	var files []SkillResource
	if err := json.Unmarshal(b, &files); err != nil {
		return err
	}
	*m = Manifest{Files: files}
	return nil
}
