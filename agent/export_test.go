package agent

import (
	"context"
	"time"
)

// Shorten is shorten, for the external tests.
var Shorten = shorten

// SetNow replaces the session's clock (time.Now), for the external tests.
func SetNow(s *Session, now func() time.Time) { s.now = now }

// Input, Invoke, Render and SchemaMap are the tool's decoded arguments,
// its call on them, the block of a skill list and the schema as a map,
// for the external tests.
type Input = input

func (t *Tool) Invoke(ctx context.Context, in Input) Result { return t.invoke(ctx, in) }

var Render = renderSkills

func (d *Definition) SchemaMap() (map[string]any, error) { return d.schemaMap() }

// Session is the session the tool records loads on (a program passes its
// own as ToolOptions.Session, or takes Wiring.Session).
func (t *Tool) Session() *Session { return t.session }
