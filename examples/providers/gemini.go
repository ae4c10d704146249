package providers

import (
	"context"
	"encoding/json"
	"errors"

	"google.golang.org/genai"

	"github.com/skillet-go/skillet/agent"
)

// RunGemini runs one task through the Gemini API's generateContent, as
// RunAnthropic does through the Messages API.
func RunGemini(ctx context.Context, client *genai.Client, skills *agent.Wiring, model, task string) (string, error) {
	system, err := skills.Layer().Render(ctx)
	if err != nil {
		return "", err
	}
	contents := []*genai.Content{genai.NewContentFromText(task, genai.RoleUser)}
	for range 10 {
		def, err := skills.Tool().Definition(ctx)
		if err != nil {
			return "", err
		}
		resp, err := client.Models.GenerateContent(ctx, model, contents, &genai.GenerateContentConfig{
			SystemInstruction: genai.NewContentFromText(system, genai.RoleUser),
			Tools: []*genai.Tool{{FunctionDeclarations: []*genai.FunctionDeclaration{
				{Name: def.Name, Description: def.Description, ParametersJsonSchema: def.InputSchema}}}},
		})
		if err != nil {
			return "", err
		}
		calls := resp.FunctionCalls()
		if len(calls) == 0 {
			return resp.Text(), nil
		}
		contents = append(contents, resp.Candidates[0].Content)
		var parts []*genai.Part
		for _, call := range calls {
			args, err := json.Marshal(call.Args)
			if err != nil {
				return "", err
			}
			res := skills.Tool().Call(ctx, args)
			out := map[string]any{"output": res.Text}
			if res.IsError {
				out = map[string]any{"error": res.Text}
			}
			part := genai.NewPartFromFunctionResponse(call.Name, out)
			part.FunctionResponse.ID = call.ID
			parts = append(parts, part)
		}
		contents = append(contents, genai.NewContentFromParts(parts, genai.RoleUser))
	}
	return "", errors.New("no answer after 10 turns")
}
