// Package agent gives a Go agent loop what it needs for the three stages
// of Agent Skills' progressive disclosure (docs/ARCHITECTURE.md#the-three-stages, docs/disclosure.md): the catalog
// block for the system prompt (stage 1), the load tool that returns a
// skill's instructions (stage 2) and its bundled files (stage 3), the
// session record of what was loaded, and a system-prompt stack with
// provider presets.
//
// # Wiring
//
// [New] ties one [catalog.Catalog] to a [Skills] value whose catalog block
// and load tool cannot disagree about roots or names:
//
//	c, _ := catalog.New(ctx, &catalog.Options{Workspace: "."})
//	sk := agent.New(c, nil)
//	stack, _ := agent.NewStack("anthropic", &agent.StackOptions{
//		Identity: agent.Text("You are a release engineer."),
//		Skills:   sk,
//	})
//	system, _ := stack.Render(ctx)         // identity + catalog block
//	def, _ := sk.Tool().Definition(ctx)    // name, description, JSON Schema
//	// ... when the model calls the tool with raw JSON arguments:
//	res := sk.Tool().Call(ctx, args)       // res.Text, res.IsError
//	loaded := sk.Session().Loaded()        // what this run pulled in
//
// # The catalog block
//
// [Render] and [RenderListing] write the block of docs/disclosure.md#catalog-block in XML (default),
// Markdown, JSON or a caller's text/template ([ParseTemplate]). Every text
// in the XML block is escaped, so a description can neither close a tag
// nor add an entry. Descriptions are cut at maxDescriptionChars on a word
// boundary; hidden skills (disable-model-invocation) are left
// out; a budget in characters drops descriptions from the end before any
// name, and the last line counts what is not shown. [Block] reports what
// was cut and left out, and [Block.Diagnostic] turns that into the
// catalog-truncated warning. BlockOptions.Location lets a server show
// other locations (skill://NAME/SKILL.md for MCP).
//
// # The load tool
//
// [Tool] is transport-neutral: [Tool.Definition] and [Tool.InputSchema]
// describe it (a *jsonschema.Schema whose name enum follows the current
// listing), and [Tool.Call] takes the model's raw JSON arguments and
// returns a [Result] (text and an error flag), never a Go error or a
// panic. Bundled files are read through os.Root, confined to the skill
// folder, capped in size, and refused when binary. Hidden skills cannot be
// loaded by the model unless ToolOptions.AllowHidden is set (for a
// person's explicit invocation).
//
// # Sessions and prompts
//
// A [Session] records each successful load (name, time, bytes) and can
// run a callback on each, for telemetry or to refuse a load. A [Stack]
// composes named prompt [Layer]s; [NewStack] builds the provider presets
// of Brute, where anthropic, openai, google and default include the
// skills layer and ollama leaves it out.
package agent
