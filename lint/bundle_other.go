//go:build !(linux && (amd64 || arm64))

package lint

import "github.com/skillet-go/skillet/skill"

func walkBundle(s *subject, _ *folderView) []skill.Diagnostic { return walkBundleDir(s) }
