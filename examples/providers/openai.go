package providers

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/skillet-go/skillet/agent"
)

// RunOpenAIChat runs one task through the Chat Completions API, as
// RunAnthropic does through the Messages API.
func RunOpenAIChat(ctx context.Context, client openai.Client, skills *agent.Wiring, model, task string) (string, error) {
	system, err := skills.Layer().Render(ctx)
	if err != nil {
		return "", err
	}
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage(task)}
	for range 10 {
		def, err := skills.Tool().Definition(ctx)
		if err != nil {
			return "", err
		}
		tool, err := def.For("openai-chat")
		if err != nil {
			return "", err
		}
		resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model: openai.ChatModel(model), Messages: msgs,
			Tools: []openai.ChatCompletionToolUnionParam{param.Override[openai.ChatCompletionToolUnionParam](tool)},
		})
		if err != nil {
			return "", err
		}
		if len(resp.Choices) == 0 {
			return "", errors.New("no choices in the response")
		}
		msg := resp.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		msgs = append(msgs, msg.ToParam())
		for _, call := range msg.ToolCalls {
			res := skills.Tool().Call(ctx, json.RawMessage(call.Function.Arguments))
			msgs = append(msgs, openai.ToolMessage(res.Text, call.ID))
		}
	}
	return "", errors.New("no answer after 10 turns")
}

// RunOpenAIResponses runs one task through the Responses API, chaining
// turns with previous_response_id.
func RunOpenAIResponses(ctx context.Context, client openai.Client, skills *agent.Wiring, model, task string) (string, error) {
	system, err := skills.Layer().Render(ctx)
	if err != nil {
		return "", err
	}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage(task, responses.EasyInputMessageRoleUser)}
	previous := ""
	for range 10 {
		def, err := skills.Tool().Definition(ctx)
		if err != nil {
			return "", err
		}
		tool, err := def.For("openai-responses")
		if err != nil {
			return "", err
		}
		params := responses.ResponseNewParams{
			Model: model, Instructions: openai.String(system),
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
			Tools: []responses.ToolUnionParam{param.Override[responses.ToolUnionParam](tool)},
		}
		if previous != "" {
			params.PreviousResponseID = openai.String(previous)
		}
		resp, err := client.Responses.New(ctx, params)
		if err != nil {
			return "", err
		}
		previous, input = resp.ID, nil
		for _, item := range resp.Output {
			if item.Type == "function_call" {
				call := item.AsFunctionCall()
				res := skills.Tool().Call(ctx, json.RawMessage(call.Arguments))
				out, err := res.For("openai-responses", call.CallID, call.Name)
				if err != nil {
					return "", err
				}
				input = append(input, param.Override[responses.ResponseInputItemUnionParam](out))
			}
		}
		if len(input) == 0 {
			return resp.OutputText(), nil
		}
	}
	return "", errors.New("no answer after 10 turns")
}
