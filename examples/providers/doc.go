// Package providers wires skillet's agent package to the official Go SDKs
// of the Anthropic Messages API, the OpenAI Chat Completions and Responses
// APIs and the Gemini API: one function per API runs Brute's agent flow
// (the catalog block in the system prompt, the load tool offered, each
// tool call answered through agent.Tool.Call) and returns the model's
// final text. It is its own module, so the SDKs never enter skillet's
// go.mod; its tests run each function against a fake API server on
// loopback (docs/disclosure.md#provider-shapes).
package providers
