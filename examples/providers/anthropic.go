package providers

import (
	"context"
	"errors"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/skillet-go/skillet/agent"
)

// RunAnthropic runs one task through the Messages API: the catalog block
// as the system prompt, the load tool offered, every tool call answered,
// until the model answers in text (at most 10 turns).
func RunAnthropic(ctx context.Context, client anthropic.Client, skills *agent.Wiring, model, task string) (string, error) {
	system, err := skills.Layer().Render(ctx)
	if err != nil {
		return "", err
	}
	msgs := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(task))}
	for range 10 {
		def, err := skills.Tool().Definition(ctx) // its name enum follows the skills on disk
		if err != nil {
			return "", err
		}
		tool, err := def.For("anthropic")
		if err != nil {
			return "", err
		}
		resp, err := client.Messages.New(ctx, anthropic.MessageNewParams{
			Model: anthropic.Model(model), MaxTokens: 4096, Messages: msgs,
			System: []anthropic.TextBlockParam{{Text: system}},
			Tools:  []anthropic.ToolUnionParam{param.Override[anthropic.ToolUnionParam](tool)},
		})
		if err != nil {
			return "", err
		}
		msgs = append(msgs, resp.ToParam())
		var text strings.Builder
		var results []anthropic.ContentBlockParamUnion
		for _, b := range resp.Content {
			switch b.Type {
			case "text":
				text.WriteString(b.Text)
			case "tool_use":
				res := skills.Tool().Call(ctx, b.Input)
				results = append(results, anthropic.NewToolResultBlock(b.ID, res.Text, res.IsError))
			}
		}
		if len(results) == 0 {
			return text.String(), nil
		}
		msgs = append(msgs, anthropic.NewUserMessage(results...))
	}
	return "", errors.New("no answer after 10 turns")
}
