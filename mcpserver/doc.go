// Package mcpserver serves the skills of a [catalog.Catalog] over the Model
// Context Protocol, on the official Go SDK, so that every MCP client gets
// them in the way it supports (docs/mcp.md):
//
//  1. Resources: every file of every served skill is a resource
//     skill://NAME/PATH. SKILL.md has MIME type text/markdown and the
//     skill's name and description; files that are valid UTF-8 go out as
//     text, anything else as blob, byte for byte.
//  2. Instructions: the server's instructions carry the catalog block of
//     docs/disclosure.md#catalog-block, rendered by package agent with skill:// URIs as
//     locations, and say how to read the skills as resources.
//  3. The load tool of docs/disclosure.md#load-tool: package agent's tool, with the same schema
//     (its name enum lists the skills a model may load, hidden ones aside,
//     and changes on reload) and
//     the same outputs, skill://NAME as base directory. With [ToolAuto] it
//     is left out of tools/list for clients that advertise the Skills
//     Extension, since they load skills themselves.
//  4. Prompts: each skill is an MCP prompt, hidden skills
//     (disable-model-invocation) included, so a user can invoke any skill
//     explicitly.
//  5. The Skills Extension (SEP-2640, docs/mcp.md#skills-extension): the
//     capability extensions["io.modelcontextprotocol/skills"] =
//     {"directoryRead": true} beside resources; skills/list with cursor
//     pagination, skills/get, resources/directory/read; manifests of
//     sha256 digests and sizes computed from exactly the bytes
//     resources/read returns; resultType, ttlMs and cacheScope on protocol
//     2026-07-28. Only skills whose frontmatter parsed as plain YAML and
//     whose name meets the specification are listed there; the others get
//     an extension-excluded diagnostic and are served by layers 1 to 4.
//
// # Snapshots and reload
//
// The server answers from a snapshot: the catalog listing and the bytes of
// every served file, read once through os.Root confined to each skill
// folder. [Server.Reload] builds a new snapshot (reusing the bytes of
// unchanged files) and swaps it in under a lock that every request holds
// shared, so no answer mixes two states; the SDK sends
// notifications/resources/list_changed, notifications/prompts/list_changed
// and, as the tool goes out again with its new name enum,
// notifications/tools/list_changed. [Server.Watch] calls it when the roots change on disk
// (fsnotify with a debounce, polling where notifications fail). A skill
// file that no longer loads, as when it is half written, does not take its
// skill away: the last good version stays until the new one loads.
//
// # Bad input
//
// A URI that is not the canonical skill://NAME/PATH of a served file (other
// schemes, "..", percent-encoded traversal, empty segments, folders) gets a
// JSON-RPC error -32602 and never bytes from outside a skill; so do unknown
// skills and malformed cursors.
//
// # Transports
//
// [Server.Run] serves one session (stdio); [Server.Serve] serves
// streamable HTTP at [Path], stateless by default, with the SDK's
// DNS-rebinding protection. Both finish the requests in flight when their
// context ends.
package mcpserver
