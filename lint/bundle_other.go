//go:build !(linux && (amd64 || arm64))

package lint

import (
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/skill"
)

func walkBundle(s *catalog.Skill, _ *[]string) []skill.Diagnostic { return walkBundleDir(s) }
