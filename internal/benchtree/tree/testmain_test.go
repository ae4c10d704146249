package tree

import (
	"os"
	"testing"

	"github.com/skillet-go/skillet/internal/testtmp"
)

// TestMain lays the tests' temporary folders out on a memory file system
// when there is one (internal/testtmp).
func TestMain(m *testing.M) { os.Exit(testtmp.M(m).Run()) }
