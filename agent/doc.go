// Package agent gives a Go agent loop what it needs for the three stages
// of Agent Skills' progressive disclosure (docs/ARCHITECTURE.md#the-three-stages, docs/disclosure.md): the catalog
// block for the system prompt (stage 1), the load tool that returns a
// skill's instructions (stage 2) and its bundled files (stage 3), the
// session record of what was loaded, and a system-prompt stack with
// provider presets.
//
// [New] ties one [catalog.Catalog] to a [Wiring] value whose catalog block
// and load tool cannot disagree about roots or names; the package example
// wires it to an agent loop (the system prompt, the tool definition, a
// call, the session).
//
// [RenderListing] writes the catalog block (XML, Markdown, JSON
// or a text/template from [ParseTemplate]), escaped, cut to budget, hidden
// skills left out; [Block] says what was cut (docs/disclosure.md#catalog-block).
// [Tool] is the transport-neutral load tool: [Tool.Definition] for a
// provider's tool API, [Tool.Call] on the model's raw JSON arguments, which
// returns a [Result] and never a Go error (docs/disclosure.md#load-tool).
// A [Session] records each load; a [Stack] composes prompt [Layer]s, with
// provider presets from [NewStack] (docs/disclosure.md#agent-wiring).
package agent
