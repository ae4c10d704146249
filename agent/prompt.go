package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/agentx"
)

// Layer is one part of a system prompt. Render returns its text, or "" to
// contribute nothing this time.
type Layer interface {
	Render(ctx context.Context) (string, error)
}

// Text is a layer of fixed text.
type Text string

// renderSkills returns t.
func (t Text) Render(context.Context) (string, error) { return string(t), nil }

// layerFunc adapts a function to [Layer].
type layerFunc func(ctx context.Context) (string, error)

// Render calls f.
func (f layerFunc) Render(ctx context.Context) (string, error) { return f(ctx) }

// Stack is a system prompt made of named layers rendered in order
// (docs/disclosure.md#agent-wiring). The zero value is an empty stack.
type Stack struct {
	names  []string
	layers []Layer
}

// Add appends a layer and returns the stack.
func (s *Stack) Add(name string, l Layer) *Stack {
	s.names = append(s.names, name)
	s.layers = append(s.layers, l)
	return s
}

// Names returns the layers' names in order.
func (s *Stack) Names() []string { return append([]string(nil), s.names...) }

// Render renders every layer in order and joins the texts that are not
// empty (trailing white space trimmed) with a blank line; the result ends
// in a newline unless it is empty. The first error stops it, wrapped with
// the layer's name.
func (s *Stack) Render(ctx context.Context) (string, error) {
	var parts []string
	for i, l := range s.layers {
		text, err := l.Render(ctx)
		if err != nil {
			return "", fmt.Errorf("prompt layer %q: %w", s.names[i], err)
		}
		if text = strings.TrimRight(text, " \t\r\n"); text != "" {
			parts = append(parts, text)
		}
	}
	if len(parts) == 0 {
		return "", nil
	}
	return strings.Join(parts, "\n\n") + "\n", nil
}

// The names of the layers [NewStack] adds, as [Stack.Names] gives them.
const (
	layerIdentity     = "identity"
	layerSkills       = "skills"
	layerInstructions = "instructions"
)

// provider is a row of the provider presets: which layers its system
// prompt stack has.
type provider struct {
	// Name is the provider's name.
	Name string
	// Skills says the stack includes the skills layer.
	Skills bool
}

// providers are the presets ([ProviderNames]): the skills layer is part of
// the default stack for anthropic, openai, google and default; the ollama
// stack leaves it out to keep prompts lean for small local models
// (docs/disclosure.md#agent-wiring). Presets are data: add a row to add a
// provider.
var providers = []provider{
	{Name: "anthropic", Skills: true},
	{Name: "openai", Skills: true},
	{Name: "google", Skills: true},
	{Name: "default", Skills: true},
	{Name: "ollama", Skills: false},
}

// defaultProvider is the preset used for an empty provider name.
const defaultProvider = "default"

// ErrUnknownProvider is returned by [NewStack] for a name that is not one
// of [ProviderNames].
var ErrUnknownProvider = errors.New("unknown provider")

// lookupProvider returns the preset named name (case-insensitive; ""
// means "default"). The error wraps ErrUnknownProvider.
func lookupProvider(name string) (provider, error) {
	if name == "" {
		name = defaultProvider
	}
	for _, p := range providers {
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
	}
	return provider{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownProvider, name, strings.Join(ProviderNames(), ", "))
}

// ProviderNames returns the presets' names: anthropic, openai, google,
// default (the skills layer included) and ollama (left out).
func ProviderNames() []string {
	names := make([]string, len(providers))
	for i, p := range providers {
		names[i] = p.Name
	}
	return names
}

// StackOptions give [NewStack] its layers. A nil *StackOptions means an
// empty stack.
type StackOptions struct {
	// Identity is the first layer: who the agent is. nil means none.
	Identity Layer
	// Skills is the source of the skills layer (the catalog block); nil
	// means no skills layer even for a provider that has one.
	Skills *Wiring
	// Instructions is the last layer: the caller's own rules. nil means
	// none.
	Instructions Layer
}

// NewStack returns the system-prompt stack of a provider preset (one of
// [ProviderNames], case-insensitive; "" means "default"): the layers
// "identity", then "skills" when the preset includes it, then
// "instructions" (layers left nil in opts are left out). The error wraps
// ErrUnknownProvider.
func NewStack(provider string, opts *StackOptions) (*Stack, error) {
	p, err := lookupProvider(provider)
	if err != nil {
		return nil, err
	}
	var o StackOptions
	if opts != nil {
		o = *opts
	}
	s := &Stack{}
	if o.Identity != nil {
		s.Add(layerIdentity, o.Identity)
	}
	if p.Skills && o.Skills != nil {
		s.Add(layerSkills, o.Skills.Layer())
	}
	if o.Instructions != nil {
		s.Add(layerInstructions, o.Instructions)
	}
	return s, nil
}

// Options configure [New]. A nil *Options means the zero value: discover
// every skill of the catalog, with the catalog's settings.
type Options struct {
	// Skills, when not nil, is the caller's own skill list (Brute: "or
	// objects you built yourself"): the block shows these instead of
	// discovering, and the tool loads only skills of these names. An empty
	// non-nil slice means no skills: no block, and a tool that says none
	// are available.
	Skills []*catalog.Skill
	// Block configures the catalog block. Zero fields take the catalog's
	// settings: toolName, maxDescriptionChars and catalogBudgetChars.
	Block *BlockOptions
	// Tool configures the load tool; its Skills field is replaced by the
	// one above.
	Tool *ToolOptions
}

// Wiring ties one catalog to an agent: the catalog block for the system
// prompt ([Wiring.Block], [Wiring.Layer]) and the load tool ([Wiring.Tool])
// are built from the same [catalog.Catalog], so they cannot disagree about
// roots, names or the tool's name (Brute: "point both the prompt and the
// tool at the same root"). It is safe for concurrent use.
type Wiring struct {
	c     *catalog.Catalog
	own   []*catalog.Skill
	block BlockOptions
	tool  *Tool
}

// New returns the skills wiring of c. A caller's list (Options.Skills) must
// hold skills the catalog lists now and loads: a skill another catalog
// found, or one c does not hold (any more), is an error wrapping
// catalog.ErrNotFound, since the prompt would advertise a skill the tool
// cannot load (Brute). Give skills the program builds itself to the
// catalog as a catalog.Source. The error is also ctx's, from listing c.
func New(ctx context.Context, c *catalog.Catalog, opts *Options) (*Wiring, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	for i, own := range o.Skills {
		if own == nil {
			return nil, fmt.Errorf("agent.New: Options.Skills[%d] is nil", i)
		}
		s, err := c.Get(ctx, own.Name)
		if err != nil {
			return nil, fmt.Errorf("agent.New: the tool cannot load the caller's skill %q (%s): %w; give a skill the program builds to the catalog as a catalog.Source", own.Name, own.Location, err)
		}
		if s.Location != own.Location {
			return nil, fmt.Errorf("agent.New: %w: the caller's skill %q at %s is not the catalog's, which is at %s: the prompt and the tool would disagree", catalog.ErrNotFound, own.Name, own.Location, s.Location)
		}
	}
	var to ToolOptions
	if o.Tool != nil {
		to = *o.Tool
	}
	to.Skills = o.Skills
	s := &Wiring{c: c, own: o.Skills}
	s.tool = NewTool(c, &to)
	if o.Block != nil {
		s.block = *o.Block
	}
	set := c.Settings()
	s.block.ToolName = s.tool.Name()
	if s.block.MaxDescriptionChars == 0 {
		s.block.MaxDescriptionChars = set.MaxDescriptionChars
	}
	if s.block.BudgetChars == 0 {
		s.block.BudgetChars = set.CatalogBudgetChars
	}
	return s, nil
}

// Tool returns the load tool.
func (s *Wiring) Tool() *Tool { return s.tool }

// Session returns the tool's session.
func (s *Wiring) Session() *Session { return s.tool.session }

// Block renders the catalog block now: of the caller's list when one was
// given, else of the catalog's current listing ([RenderListing]). The error
// is ctx's or a caller's template's.
func (s *Wiring) Block(ctx context.Context) (*Block, error) {
	if s.own != nil {
		return renderSkills(s.own, &s.block)
	}
	if b := agentx.BlockListingFrom(ctx); b != nil {
		return renderListing(b.Listing, b.NotListed, &s.block)
	}
	l, err := s.c.List(ctx)
	if err != nil {
		return nil, err
	}
	return RenderListing(l, &s.block)
}

// Layer returns the skills layer: the catalog block, rendered afresh on
// every Render so edits on disk reach the next prompt. It renders "" when
// there is no skill to show and none left out, whatever the format.
func (s *Wiring) Layer() Layer {
	return layerFunc(func(ctx context.Context) (string, error) {
		b, err := s.Block(ctx)
		if err != nil {
			return "", err
		}
		if len(b.Entries) == 0 && b.LeftOut() == 0 {
			return "", nil
		}
		return b.Text, nil
	})
}
