package agent

import (
	"errors"
	"fmt"
)

// ErrUnknownAPI is returned by [Definition.For] and [Result.For] for an
// API name they do not know.
var ErrUnknownAPI = errors.New("unknown tool API (want anthropic, openai-chat, openai-responses, gemini or mcp)")

// For returns the definition as the named API takes a tool, a value
// json.Marshal writes in that API's shape (no SDK is imported):
//
//	anthropic         {"name", "description", "input_schema"}: a tool of the Messages API
//	openai-chat       {"type": "function", "function": {"name", "description", "parameters"}}: Chat Completions
//	openai-responses  {"type": "function", "name", "description", "parameters", "strict": false}: Responses
//	gemini            {"name", "description", "parametersJsonSchema"}: a functionDeclarations entry
//	mcp               {"name", "description", "inputSchema"}: a tools/list entry
//
// The schema is the same object in each (see [Tool.Definition]); Responses
// is told strict false because its strict mode needs every property
// required, and the tool's are all optional. The sources are each API's
// reference: https://docs.anthropic.com/en/api/messages,
// https://platform.openai.com/docs/api-reference/chat/create,
// https://platform.openai.com/docs/api-reference/responses/create,
// https://ai.google.dev/api/caching#FunctionDeclaration and
// https://modelcontextprotocol.io/specification/2025-11-25/server/tools.
// The error wraps ErrUnknownAPI, or is the schema's marshalling error.
func (d *Definition) For(api string) (map[string]any, error) {
	schema, err := d.schemaMap()
	if err != nil {
		return nil, err
	}
	switch api {
	case "anthropic":
		return map[string]any{"name": d.Name, "description": d.Description, "input_schema": schema}, nil
	case "openai-chat":
		return map[string]any{"type": "function", "function": map[string]any{
			"name": d.Name, "description": d.Description, "parameters": schema}}, nil
	case "openai-responses":
		return map[string]any{"type": "function", "name": d.Name, "description": d.Description,
			"parameters": schema, "strict": false}, nil
	case "gemini":
		return map[string]any{"name": d.Name, "description": d.Description, "parametersJsonSchema": schema}, nil
	case "mcp":
		return map[string]any{"name": d.Name, "description": d.Description, "inputSchema": schema}, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownAPI, api)
}

// For returns the result as the named API takes the answer to a tool call
// (the names of [Definition.For]); callID is the call's ID as the model
// sent it (Anthropic's tool_use id, OpenAI's tool_call id or call_id,
// Gemini's functionCall id or "", unused by MCP). name is the tool's name,
// which Gemini's functionResponse carries:
//
//	anthropic         {"type": "tool_result", "tool_use_id", "content", "is_error"}: a user-message content block
//	openai-chat       {"role": "tool", "tool_call_id", "content"}: a message
//	openai-responses  {"type": "function_call_output", "call_id", "output"}: an input item
//	gemini            {"functionResponse": {"id", "name", "response": {"output"} or {"error"}}}: a part
//	mcp               {"content": [{"type": "text", "text"}], "isError"}: a CallToolResult
//
// OpenAI's two APIs have no error flag: an error result's text says what
// went wrong, which is what the model reads anyway. The error wraps
// ErrUnknownAPI.
func (r Result) For(api, callID, name string) (map[string]any, error) {
	switch api {
	case "anthropic":
		return map[string]any{"type": "tool_result", "tool_use_id": callID, "content": r.Text, "is_error": r.IsError}, nil
	case "openai-chat":
		return map[string]any{"role": "tool", "tool_call_id": callID, "content": r.Text}, nil
	case "openai-responses":
		return map[string]any{"type": "function_call_output", "call_id": callID, "output": r.Text}, nil
	case "gemini":
		key := "output"
		if r.IsError {
			key = "error"
		}
		fr := map[string]any{"name": name, "response": map[string]any{key: r.Text}}
		if callID != "" {
			fr["id"] = callID
		}
		return map[string]any{"functionResponse": fr}, nil
	case "mcp":
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": r.Text}}, "isError": r.IsError}, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknownAPI, api)
}
