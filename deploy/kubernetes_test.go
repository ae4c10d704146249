package deploy_test

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/cli"
	"github.com/skillet-go/skillet/internal/yamlx"
	"github.com/skillet-go/skillet/mcpserver"
)

// manifest parses deploy/kubernetes/NAME.
func manifest(t *testing.T, name string) *yamlx.Node {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("kubernetes", name))
	if err != nil {
		t.Fatal(err)
	}
	n, err := yamlx.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// at follows keys (mapping keys, or "0", "1"... for sequence items) from n
// and fails the test where one is missing.
func at(t *testing.T, n *yamlx.Node, keys ...string) *yamlx.Node {
	t.Helper()
	for i, k := range keys {
		var next *yamlx.Node
		switch n.Kind {
		case yamlx.MappingNode:
			for j := 0; j+1 < len(n.Content); j += 2 {
				if yamlx.KeyText(n.Content[j]) == k {
					next = n.Content[j+1]
				}
			}
		case yamlx.SequenceNode:
			if idx, err := strconv.Atoi(k); err == nil && idx < len(n.Content) {
				next = n.Content[idx]
			}
		}
		if next == nil {
			t.Fatalf("no %s in the manifest", strings.Join(keys[:i+1], "."))
		}
		n = next
	}
	return n
}

// strs is the values of a sequence of scalars.
func strs(n *yamlx.Node) []string {
	var out []string
	for _, c := range n.Content {
		out = append(out, c.Value)
	}
	return out
}

// skilletContainer is the Deployment's container named skillet.
func skilletContainer(t *testing.T) *yamlx.Node {
	t.Helper()
	cs := at(t, manifest(t, "deployment.yaml"), "spec", "template", "spec", "containers")
	for _, c := range cs.Content {
		if at(t, c, "name").Value == "skillet" {
			return c
		}
	}
	t.Fatal("the Deployment has no container named skillet")
	return nil
}

// quantity reads a Kubernetes memory quantity with a binary suffix (Ki, Mi,
// Gi) or none, in bytes.
func quantity(t *testing.T, q string) int64 {
	t.Helper()
	m := regexp.MustCompile(`^(\d+)(Ki|Mi|Gi)?$`).FindStringSubmatch(q)
	if m == nil {
		t.Fatalf("memory quantity %q: want digits and Ki, Mi, Gi or nothing", q)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	return n << map[string]int{"": 0, "Ki": 10, "Mi": 20, "Gi": 30}[m[2]]
}

// servedBytes parses the container's arguments with skillet serve's own
// flags and returns --max-served-bytes as the server would read it (its
// default when not given).
func servedBytes(t *testing.T, args []string) int64 {
	t.Helper()
	if len(args) == 0 || args[0] != "serve" {
		t.Fatalf("the container's args %q do not start with serve", args)
	}
	root := cli.NewCmdRoot(cli.NewFactory(&cli.IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}))
	cmd, _, err := root.Find(args[:1])
	if err != nil {
		t.Fatal(err)
	}
	// The root's flags (--workspace, --no-user...) as well as serve's.
	if err := cmd.ParseFlags(args[1:]); err != nil {
		t.Fatalf("skillet serve does not take the container's args: %v", err)
	}
	n, err := cmd.Flags().GetInt64("max-served-bytes")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDeploymentMemoryFollowsTheBudget: the container's memory limit is the
// server's one memory budget, --max-served-bytes as its arguments give it,
// plus the fixed overhead docs/serving.md#memory states
// (mcpserver.MemoryOverhead), the figure skillet serve gives the Go
// runtime as its soft limit; the request is no more than the limit.
func TestDeploymentMemoryFollowsTheBudget(t *testing.T) {
	c := skilletContainer(t)
	budget := servedBytes(t, strs(at(t, c, "args")))
	limit := quantity(t, at(t, c, "resources", "limits", "memory").Value)
	if want := budget + mcpserver.MemoryOverhead; limit != want {
		t.Errorf("memory limit %d bytes (%d MiB), want --max-served-bytes %d + overhead %d = %d (%dMi)",
			limit, limit>>20, budget, int64(mcpserver.MemoryOverhead), want, want>>20)
	}
	if req := quantity(t, at(t, c, "resources", "requests", "memory").Value); req > limit {
		t.Errorf("memory request %d over the limit %d", req, limit)
	}
}
