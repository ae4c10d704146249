package agent

import "time"

// Shorten is shorten, for the external tests.
var Shorten = shorten

// SetNow replaces the session's clock (time.Now), for the external tests.
func SetNow(s *Session, now func() time.Time) { s.now = now }
