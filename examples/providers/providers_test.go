package providers

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
	"google.golang.org/genai"

	"github.com/skillet-go/skillet/agent"
)

// fakeAPI is a scripted model API on loopback: the nth POST to path gets
// the nth of answers, and every request body is kept.
type fakeAPI struct {
	mu       sync.Mutex
	path     string
	answers  []string
	requests []string
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != f.path || len(f.requests) == len(f.answers) {
		http.Error(w, `{"error":{"message":"unexpected `+r.Method+" "+r.URL.Path+`"}}`, http.StatusBadRequest)
		return
	}
	// Some SDKs escape <, > and & in JSON strings; the checks read them plain.
	f.requests = append(f.requests, strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(body)))
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, f.answers[len(f.requests)-1])
}

// serve starts f on 127.0.0.1 for the test.
func serve(t *testing.T, f *fakeAPI) string {
	srv := httptest.NewServer(f) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	return srv.URL
}

const answer = "Reproduce it first, then bisect."

// check runs one provider's flow and checks what the model was sent: the
// catalog block with the embedded skill's embed:// location and the load
// tool with its name enum in the first request, the skill's body in the
// second; and that the session recorded the load.
func check(t *testing.T, f *fakeAPI, run func(*agent.Wiring) (string, error), toolKey string) {
	t.Helper()
	skills, err := NewSkills(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := run(skills)
	if err != nil {
		t.Fatal(err)
	}
	if got != answer {
		t.Errorf("answer = %q, want %q", got, answer)
	}
	if len(f.requests) != 2 {
		t.Fatalf("%d requests, want 2", len(f.requests))
	}
	for _, want := range []string{"<available_skills>", "embed://skills/debugging/SKILL.md", `"use_skill"`, toolKey, `"enum":["debugging"]`} {
		if !strings.Contains(f.requests[0], want) {
			t.Errorf("first request lacks %s:\n%s", want, f.requests[0])
		}
	}
	for _, want := range []string{"When debugging, follow these steps", "Base directory for this skill: embed://skills/debugging", "references/checklist.md"} {
		if !strings.Contains(f.requests[1], want) {
			t.Errorf("second request lacks the tool result's %q:\n%s", want, f.requests[1])
		}
	}
	if loaded := skills.Session().Skills(); len(loaded) != 1 || loaded[0] != "debugging" {
		t.Errorf("session = %v", loaded)
	}
}

func TestAnthropic(t *testing.T) {
	f := &fakeAPI{path: "/v1/messages", answers: []string{
		`{"id":"msg_1","type":"message","role":"assistant","model":"m","stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1},
		  "content":[{"type":"tool_use","id":"toolu_1","name":"use_skill","input":{"name":"debugging"}}]}`,
		`{"id":"msg_2","type":"message","role":"assistant","model":"m","stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1},
		  "content":[{"type":"text","text":"` + answer + `"}]}`,
	}}
	client := anthropic.NewClient(aoption.WithBaseURL(serve(t, f)), aoption.WithAPIKey("test"), aoption.WithMaxRetries(0))
	check(t, f, func(s *agent.Wiring) (string, error) {
		return RunAnthropic(context.Background(), client, s, "claude-test", "Find the bug.")
	}, `"input_schema"`)
	if !strings.Contains(f.requests[1], `"tool_use_id":"toolu_1"`) {
		t.Errorf("the tool result does not answer toolu_1:\n%s", f.requests[1])
	}
}

func TestOpenAIChat(t *testing.T) {
	f := &fakeAPI{path: "/chat/completions", answers: []string{
		`{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls",
		  "message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"use_skill","arguments":"{\"name\":\"debugging\"}"}}]}}]}`,
		`{"id":"c2","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop",
		  "message":{"role":"assistant","content":"` + answer + `"}}]}`,
	}}
	client := openai.NewClient(ooption.WithBaseURL(serve(t, f)), ooption.WithAPIKey("test"), ooption.WithMaxRetries(0))
	check(t, f, func(s *agent.Wiring) (string, error) {
		return RunOpenAIChat(context.Background(), client, s, "gpt-test", "Find the bug.")
	}, `"parameters"`)
	if !strings.Contains(f.requests[1], `"tool_call_id":"call_1"`) {
		t.Errorf("the tool message does not answer call_1:\n%s", f.requests[1])
	}
}

func TestOpenAIResponses(t *testing.T) {
	f := &fakeAPI{path: "/responses", answers: []string{
		`{"id":"resp_1","object":"response","created_at":1,"model":"m","status":"completed",
		  "output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"use_skill","arguments":"{\"name\":\"debugging\"}","status":"completed"}]}`,
		`{"id":"resp_2","object":"response","created_at":1,"model":"m","status":"completed",
		  "output":[{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"` + answer + `","annotations":[]}]}]}`,
	}}
	client := openai.NewClient(ooption.WithBaseURL(serve(t, f)), ooption.WithAPIKey("test"), ooption.WithMaxRetries(0))
	check(t, f, func(s *agent.Wiring) (string, error) {
		return RunOpenAIResponses(context.Background(), client, s, "gpt-test", "Find the bug.")
	}, `"strict":false`)
	for _, want := range []string{`"previous_response_id":"resp_1"`, `"type":"function_call_output"`, `"call_id":"call_1"`} {
		if !strings.Contains(f.requests[1], want) {
			t.Errorf("second request lacks %s:\n%s", want, f.requests[1])
		}
	}
}

func TestGemini(t *testing.T) {
	f := &fakeAPI{path: "/v1beta/models/gemini-test:generateContent", answers: []string{
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc_1","name":"use_skill","args":{"name":"debugging"}}}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"` + answer + `"}]}}]}`,
	}}
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{APIKey: "test", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: serve(t, f) + "/", APIVersion: "v1beta"}})
	if err != nil {
		t.Fatal(err)
	}
	check(t, f, func(s *agent.Wiring) (string, error) {
		return RunGemini(context.Background(), client, s, "gemini-test", "Find the bug.")
	}, `"parametersJsonSchema"`)
	if !strings.Contains(f.requests[1], `"functionResponse"`) || !strings.Contains(f.requests[1], `"id":"fc_1"`) {
		t.Errorf("second request lacks the functionResponse for fc_1:\n%s", f.requests[1])
	}
}

// TestGlueLines holds each SDK's glue under 60 lines: the lines of each
// Run function plus NewSkills (the catalog and agent wiring every one
// shares), comments and blank lines included.
func TestGlueLines(t *testing.T) {
	fset := token.NewFileSet()
	lines := map[string]int{}
	for _, file := range []string{"skills.go", "anthropic.go", "openai.go", "gemini.go"} {
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				lines[fn.Name.Name] = fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			}
		}
	}
	shared := lines["NewSkills"]
	if shared == 0 {
		t.Fatal("NewSkills not found")
	}
	for _, run := range []string{"RunAnthropic", "RunOpenAIChat", "RunOpenAIResponses", "RunGemini"} {
		n := lines[run] + shared
		t.Logf("%s: %d lines + NewSkills %d = %d", run, lines[run], shared, n)
		if lines[run] == 0 || n >= 60 {
			t.Errorf("%s: %d lines of glue with NewSkills, want under 60", run, n)
		}
	}
}
