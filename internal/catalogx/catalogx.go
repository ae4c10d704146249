// Package catalogx is what package catalog finds and does for its sibling
// packages beyond its public API (docs/ARCHITECTURE.md): package lint asks
// what a host would do with one skill file (HostVerdict). None of it is
// for a program that embeds skillet.
//
// Package catalog imports this package and fills in the hooks when it is
// initialized (Register), so a package that has imported catalog finds
// them set.
package catalogx

import "github.com/skillet-go/skillet/internal/profile"

// Verdict is what a host does with one skill file.
type Verdict struct {
	// Loaded says the host loads the skill; Name and Description are then
	// what it shows (Description after every cut), and Hidden says the
	// host keeps it from the model (disable-model-invocation).
	Loaded      bool
	Name        string
	Description string
	Hidden      bool
	// Changes say how what the host shows differs from the file as
	// written ("the description is cut at 1024 characters"), when loaded.
	Changes []string
	// Reason says why the host does not load it, when not loaded.
	Reason string
}

// Hooks are catalog's functions behind this package's.
type Hooks struct {
	HostVerdict func(p *profile.Profile, file, root, boundary string) Verdict
}

var hooks Hooks

// Register sets the hooks; package catalog calls it once, when it is
// initialized.
func Register(h Hooks) { hooks = h }

// HostVerdict says what the host of profile p would do with one skill file
// were it installed in one of the host's skills folders at the same place
// as below root (the root it was found under; boundary is the folder
// symlinks must stay inside, for hosts that check; "" for none). Name
// clashes with other skills are not considered. lint --compat and
// --target read it.
func HostVerdict(p *profile.Profile, file, root, boundary string) Verdict {
	return hooks.HostVerdict(p, file, root, boundary)
}
