// Package mcpserver serves the skills of a [catalog.Catalog] over the Model
// Context Protocol, on the official Go SDK, in every way a client may take
// them (docs/mcp.md#layers): each file as a resource skill://NAME/PATH; the
// catalog block of package agent as the server's instructions; package
// agent's load tool; each skill as a prompt; and the Skills Extension of
// SEP-2640 (skills/list, skills/get, resources/directory/read, digests),
// see docs/mcp.md#skills-extension.
//
// The server answers from a snapshot of the listing and of every served
// file's bytes; [Server.Reload] swaps a new one in whole and [Server.Watch]
// reloads when the roots change (docs/mcp.md#live-reload). A URI that is
// not the canonical one of a served file gets JSON-RPC error -32602, never
// bytes from outside a skill (docs/mcp.md#refusals). [Server.Run] and
// [Server.RunStdio] serve one session; [Server.Serve] serves streamable
// HTTP at [Path] (docs/mcp.md#protocol-versions-and-transports).
package mcpserver
