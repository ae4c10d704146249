package catalog

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillet-go/skillet/internal/profile"
)

// ProfileNames returns the names of every host profile, the values
// Options.Preset and the configuration's preset take, the default first
// (docs/hosts.md).
func ProfileNames() []string { return profile.Names() }

// ErrUnknownPreset is wrapped by the error [New] returns for a preset that
// names no profile; the message suggests the nearest name.
var ErrUnknownPreset = errors.New("unknown preset")

// unknownPreset is New's error for a preset that names no profile.
func unknownPreset(name string) error {
	hint := ""
	if s := profile.Suggest(name); s != "" {
		hint = fmt.Sprintf("; did you mean %q?", s)
	}
	return fmt.Errorf("%w %q%s (known: %s)", ErrUnknownPreset, name, hint, strings.Join(ProfileNames(), ", "))
}
