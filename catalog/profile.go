package catalog

import (
	"fmt"
	"strings"

	"github.com/skillet-go/skillet/internal/profile"
)

// DefaultPreset is the profile used when neither flags nor configuration
// name one: skillet's own.
const DefaultPreset = "agents"

// ProfileNames returns the names of every host profile, the values
// Options.Preset and the configuration's preset take, the default first
// (docs/hosts.md).
func ProfileNames() []string { return profile.Names() }

// UnknownPresetError is returned by [New] for a preset that names no
// profile. Its message suggests the nearest name.
type UnknownPresetError struct {
	Name string
}

func (e *UnknownPresetError) Error() string {
	msg := fmt.Sprintf("unknown preset %q", e.Name)
	if s := profile.Suggest(e.Name); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return msg + " (known: " + strings.Join(ProfileNames(), ", ") + ")"
}
