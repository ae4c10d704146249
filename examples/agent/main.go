// Command agent is a complete agent loop wired with skillet's agent
// package, run against a scripted stand-in for the model so it needs no
// network and no API key:
//
//	go run ./examples/agent
//	go run ./examples/agent -task "Write the commit message for my staged changes"
//
// It discovers the skills in examples/skills, builds the system prompt from
// the anthropic preset (identity + the catalog block), hands the model the
// load tool's definition, and then runs the loop: the model picks a skill
// from the catalog, loads it, reads a file the skill points to, and
// answers. Every turn is printed, and the session's record of what was
// loaded is printed at the end. Swap scriptedModel for a real client (see
// README.md) and the rest stays the same.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
)

func main() {
	workspace := flag.String("workspace", defaultWorkspace(), "the project folder whose skills/ the agent uses")
	task := flag.String("task", "Please ship version 1.5.0 of this project.", "the user's request")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *workspace, *task); err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
}

// defaultWorkspace finds the examples folder from the repository root, from
// examples/agent, or from this file's location.
func defaultWorkspace() string {
	for _, dir := range []string{"examples", ".."} {
		if fi, err := os.Stat(filepath.Join(dir, "skills", "release-checklist")); err == nil && fi.IsDir() {
			return dir
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		return filepath.Join(filepath.Dir(file), "..")
	}
	return "examples"
}

// message is one entry of the conversation, in a provider-neutral shape.
type message struct {
	role    string // "user", "assistant" or "tool"
	text    string
	call    *toolCall // set when the assistant calls a tool
	isError bool      // for tool results
}

type toolCall struct {
	name string
	args json.RawMessage
}

// model is what a real client (Anthropic, OpenAI, ...) would implement.
type model interface {
	next(ctx context.Context, system string, tools []*agent.Definition, conv []message) (message, error)
}

func run(ctx context.Context, w io.Writer, workspace, task string) error {
	c, err := catalog.New(ctx, &catalog.Options{Workspace: workspace, NoUser: true})
	if err != nil {
		return err
	}
	// The session records every load; the callback could also refuse one.
	session := agent.NewSession(&agent.SessionOptions{
		OnLoad: func(_ context.Context, l agent.Load) error {
			what := "instructions"
			if l.Path != "" {
				what = l.Path
			}
			fmt.Fprintf(w, "[session] %s: %s (%d bytes)\n", l.Name, what, l.Bytes)
			return nil
		},
	})
	// One Catalog feeds both the prompt layer and the tool.
	skills, err := agent.New(ctx, c, &agent.Options{Tool: &agent.ToolOptions{Session: session}})
	if err != nil {
		return err
	}
	stack, err := agent.NewStack("anthropic", &agent.StackOptions{
		Identity: agent.Text("You are a careful release engineer working in this repository."),
		Skills:   skills,
	})
	if err != nil {
		return err
	}
	system, err := stack.Render(ctx)
	if err != nil {
		return err
	}
	def, err := skills.Tool().Definition(ctx)
	if err != nil {
		return err
	}
	defJSON, err := json.MarshalIndent(def, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "=== system prompt (%d characters) ===\n%s\n", len([]rune(system)), system)
	fmt.Fprintf(w, "=== tool definition ===\n%s\n\n", defJSON)

	var m model = &scriptedModel{}
	conv := []message{{role: "user", text: task}}
	fmt.Fprintf(w, "=== turn 1: user ===\n%s\n\n", task)
	for turn := 2; turn <= 10; turn++ {
		reply, err := m.next(ctx, system, []*agent.Definition{def}, conv)
		if err != nil {
			return err
		}
		conv = append(conv, reply)
		if reply.call == nil {
			fmt.Fprintf(w, "=== turn %d: assistant ===\n%s\n\n", turn, reply.text)
			break
		}
		fmt.Fprintf(w, "=== turn %d: assistant calls %s %s ===\n", turn, reply.call.name, reply.call.args)
		if reply.call.name != skills.Tool().Name() {
			return fmt.Errorf("the model called an unknown tool %q", reply.call.name)
		}
		res := skills.Tool().Call(ctx, reply.call.args)
		status := "result"
		if res.IsError {
			status = "error"
		}
		fmt.Fprintf(w, "--- tool %s ---\n%s\n", status, res.Text)
		conv = append(conv, message{role: "tool", text: res.Text, isError: res.IsError})
	}

	fmt.Fprintln(w, "=== session record ===")
	for _, l := range session.Loaded() {
		what := "instructions"
		if l.Path != "" {
			what = l.Path
		}
		fmt.Fprintf(w, "%s  %-18s %-26s %5d bytes\n", l.Time.Format(time.TimeOnly), l.Name, what, l.Bytes)
	}
	fmt.Fprintf(w, "skills used in this run: %s\n", strings.Join(session.Skills(), ", "))
	return nil
}

// scriptedModel stands in for a language model. It follows the protocol a
// real model follows, from what it is given: it reads the catalog out of
// the system prompt, picks the skill whose description and when-to-use
// share the most words with the request, loads it, reads the first
// reference the instructions link to, and answers with the steps.
type scriptedModel struct {
	chosen string
}

var linkRE = regexp.MustCompile(`\]\(((?:references|assets|scripts)/[^)\s]+)\)`)

func (m *scriptedModel) next(_ context.Context, system string, tools []*agent.Definition, conv []message) (message, error) {
	if len(tools) == 0 {
		return message{}, errors.New("no tools offered")
	}
	tool := tools[0].Name
	last := conv[len(conv)-1]
	switch {
	case last.role == "user":
		skills, err := parseCatalog(system)
		if err != nil {
			return message{}, err
		}
		best, score := "", 0
		for _, s := range skills {
			if n := overlap(last.text, s.Description+" "+s.WhenToUse); n > score {
				best, score = s.Name, n
			}
		}
		if best == "" {
			return callTool(tool, map[string]string{"query": last.text}), nil
		}
		m.chosen = best
		return callTool(tool, map[string]string{"name": best}), nil
	case last.role == "tool" && last.isError:
		return message{role: "assistant", text: "I could not load the skill: " + last.text}, nil
	case last.role == "tool" && strings.HasPrefix(last.text, "<skill name="):
		if link := linkRE.FindStringSubmatch(last.text); link != nil {
			return callTool(tool, map[string]string{"name": m.chosen, "path": link[1]}), nil
		}
	}
	return message{role: "assistant", text: m.answer(conv)}, nil
}

// answer summarises the loaded instructions as the steps to follow.
func (m *scriptedModel) answer(conv []message) string {
	if m.chosen == "" {
		return "No skill covers this request, so I will work on it without one."
	}
	var body string
	for _, msg := range conv {
		if msg.role == "tool" && strings.HasPrefix(msg.text, "<skill name=") {
			body = msg.text
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "I will follow the %s skill:\n", m.chosen)
	var steps []string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case len(line) > 2 && line[0] >= '1' && line[0] <= '9' && line[1] == '.':
			steps = append(steps, line)
		case len(steps) > 0 && strings.HasPrefix(line, "   "): // a step's next line
			steps[len(steps)-1] += " " + strings.TrimSpace(line)
		}
	}
	for _, s := range steps {
		b.WriteString("  " + s + "\n")
	}
	b.WriteString("Each step runs through the normal tool permissions; I will stop at the first failure.")
	return b.String()
}

func callTool(name string, args map[string]string) message {
	data, _ := json.Marshal(args)
	return message{role: "assistant", call: &toolCall{name: name, args: data}}
}

// catalogEntry is one <skill> of the <available_skills> block.
type catalogEntry struct {
	Name        string `xml:"name"`
	Description string `xml:"description"`
	WhenToUse   string `xml:"when_to_use"`
	Location    string `xml:"location"`
}

// parseCatalog reads the <available_skills> element out of a system prompt
// with encoding/xml: the block is well-formed whatever the descriptions
// hold.
func parseCatalog(system string) ([]catalogEntry, error) {
	start := strings.Index(system, "<available_skills>")
	end := strings.Index(system, "</available_skills>")
	if start < 0 || end < start {
		return nil, nil
	}
	var block struct {
		Skills []catalogEntry `xml:"skill"`
	}
	if err := xml.Unmarshal([]byte(system[start:end+len("</available_skills>")]), &block); err != nil {
		return nil, fmt.Errorf("reading the catalog: %w", err)
	}
	return block.Skills, nil
}

// overlap counts the words of four letters or more that a and b share.
func overlap(a, b string) int {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return (r < 'a' || r > 'z') && (r < '0' || r > '9')
		}) {
			if len(w) >= 4 {
				m[w] = true
			}
		}
		return m
	}
	wa, wb := words(a), words(b)
	n := 0
	for w := range wa {
		if wb[w] {
			n++
		}
	}
	return n
}
