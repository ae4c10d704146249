package agent

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Load is one successful load through the tool: a skill's body, or one of
// its bundled files.
type Load struct {
	// Name is the skill's name.
	Name string `json:"name"`
	// Path is the bundled file read, relative to the skill folder with "/"
	// separators; "" when the load was the skill's body (SKILL.md).
	Path string `json:"path,omitempty"`
	// Time is when the load happened.
	Time time.Time `json:"time"`
	// Bytes is how many bytes of the file were read (for a body, at most
	// maxSkillBytes).
	Bytes int `json:"bytes"`
	// Truncated says the body was cut at maxSkillBytes.
	Truncated bool `json:"truncated,omitempty"`
}

// SessionOptions configure [NewSession]. A nil *SessionOptions means no
// callback and the wall clock.
type SessionOptions struct {
	// OnLoad, when not nil, is called for every load before it is recorded
	// and before the tool's result goes back to the model: telemetry, a UI
	// badge, or a policy check. A non-nil error refuses the load: it is not
	// recorded and the tool returns an error result carrying the error's
	// text. OnLoad may be called from several goroutines at once and may
	// call the session's methods.
	OnLoad func(ctx context.Context, l Load) error
	// Keep bounds how many loads the session remembers, the most recent
	// ones: 0 keeps every load, a negative value keeps none (OnLoad still
	// sees each). A long-lived session shared by many clients, such as an
	// MCP server's, sets it so memory does not grow with every call.
	Keep int
}

// Session records what one agent run pulled in through the load tool, so
// other code (telemetry, policy checks, UI) can see it without re-reading
// the workspace (Kestrel: "Loaded skills are recorded on the session";
// docs/disclosure.md#load-tool). A Session is safe for concurrent use. The zero value is
// not usable; call [NewSession].
type Session struct {
	onLoad func(context.Context, Load) error
	now    func() time.Time
	keep   int

	mu    sync.Mutex
	loads []Load
}

// NewSession returns an empty session.
func NewSession(opts *SessionOptions) *Session {
	s := &Session{now: time.Now}
	if opts != nil {
		s.onLoad = opts.OnLoad
		s.keep = opts.Keep
	}
	return s
}

// Record records l, first setting its Time when it is zero. When the
// session has an OnLoad callback it runs first (without the session's lock
// held), and its error, if any, is returned and nothing is recorded.
func (s *Session) Record(ctx context.Context, l Load) error {
	if l.Time.IsZero() {
		l.Time = s.now()
	}
	if s.onLoad != nil {
		if err := s.onLoad(ctx, l); err != nil {
			return err
		}
	}
	if s.keep < 0 {
		return nil
	}
	s.mu.Lock()
	s.loads = append(s.loads, l)
	if s.keep > 0 && len(s.loads) > s.keep {
		s.loads = slices.Delete(s.loads, 0, len(s.loads)-s.keep)
	}
	s.mu.Unlock()
	return nil
}

// Loaded returns a copy of every recorded load, oldest first.
func (s *Session) Loaded() []Load {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.loads)
}

// Skills returns the names of the skills whose body was loaded, each once,
// in the order they were first loaded.
func (s *Session) Skills() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	seen := map[string]bool{}
	for _, l := range s.loads {
		if l.Path == "" && !seen[l.Name] {
			seen[l.Name] = true
			names = append(names, l.Name)
		}
	}
	return names
}

// Reset forgets every recorded load (a new conversation on the same
// agent).
func (s *Session) Reset() {
	s.mu.Lock()
	s.loads = nil
	s.mu.Unlock()
}
