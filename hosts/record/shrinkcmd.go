//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillet-go/skillet/internal/hostws"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// shrinkJob is what --shrink was given.
type shrinkJob struct {
	host, workspace    string // HOST and WORKSPACE of --shrink HOST/WORKSPACE
	name, describe     string // of the workspace written
	target             string // a substring of the difference to keep ("" for the first)
	maxRuns, finalRuns int
	timeout            time.Duration // of one agent run
	dir                string        // hosts/testdata
}

// runShrink shrinks one disagreement between host job.host and its
// profile on a workspace (generated, genV-SEED, or hand-made) to a minimal
// workspace, and writes it as DIR/workspaces/NAME.txtar with its recording
// (job.finalRuns runs) in DIR/recordings/HOST/NAME.json. Agreement is
// judged by the comparison test of the profiles itself
// (catalog's TestProfilesMatchRecordings over SKILLET_HOST_RECORDINGS), built
// once into a test binary; each candidate costs one agent run.
func runShrink(ctx context.Context, job *shrinkJob) error {
	bin := os.Getenv("SKILLET_HOSTS_BIN")
	if bin == "" {
		return fmt.Errorf("SKILLET_HOSTS_BIN is not set: run hosts/record.sh, which installs the agents and sets it")
	}
	h := hostByName(job.host)
	if h == nil {
		return fmt.Errorf("unknown host %q", job.host)
	}
	if job.name == "" || job.describe == "" {
		return fmt.Errorf("--shrink needs --name and --describe for the workspace it writes")
	}
	w, err := loadWorkspace(job.dir, job.workspace)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "skillet-shrink-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	test := filepath.Join(tmp, "catalog.test")
	if out, err := exec.CommandContext(ctx, "go", "test", "-c", "-o", test, "./catalog").CombinedOutput(); err != nil {
		return fmt.Errorf("building the profiles' comparison test: %w: %s", err, out)
	}
	srv, err := startCapture()
	if err != nil {
		return err
	}
	defer srv.close()
	env := &runEnv{bin: bin, corpus: testcorpus.Find(), srv: srv, timeout: job.timeout,
		compileCache: filepath.Join(filepath.Dir(filepath.Dir(bin)), ".node-compile-cache")}
	if err := h.prepare(ctx, env); err != nil {
		return err
	}
	cmp := &comparer{h: h, env: env, test: test, dir: filepath.Join(tmp, "set")}
	w.Name = "shrink"
	diffs, err := cmp.differences(ctx, w)
	if err != nil {
		return err
	}
	target := ""
	for _, d := range diffs {
		if target == "" && strings.Contains(d, job.target) {
			target = diffKey(d)
			fmt.Fprintf(os.Stderr, "shrink: keeping %s\n", d)
		}
	}
	if target == "" {
		return fmt.Errorf("%s on %s: no difference matching %q (differences: %q)", job.host, job.workspace, job.target, diffs)
	}
	s := &shrinker{maxRuns: job.maxRuns, log: os.Stderr, protect: map[string]bool{}}
	if side, at, _ := strings.Cut(target, " "); side != "copies" && at != "" {
		// The skill's file (or, for a host that shows folders, its folder's
		// SKILL.md) stays.
		s.protect[at], s.protect[path.Join(at, "SKILL.md")] = true, true
	}
	s.keep = func(ctx context.Context, c *hostws.Workspace) (bool, error) {
		ds, err := cmp.differences(ctx, c)
		for _, d := range ds {
			if diffKey(d) == target {
				return true, err
			}
		}
		return false, err
	}
	small, done, err := s.shrink(ctx, w)
	if err != nil {
		return err
	}
	if !done {
		fmt.Fprintf(os.Stderr, "shrink: stopped at the cap of %d runs; the workspace is smaller, not minimal\n", job.maxRuns)
	}
	return cmp.write(ctx, small, job)
}

// loadWorkspace returns the generated workspace of a name genV-SEED, or
// the hand-made workspace DIR/workspaces/NAME.txtar.
func loadWorkspace(dir, name string) (*hostws.Workspace, error) {
	if seed, ok := generatedSeed(name); ok {
		return hostws.Generate(seed), nil
	}
	return hostws.ParseFile(filepath.Join(dir, "workspaces", name+".txtar"))
}

// comparer records a host on a workspace and compares the recording with
// the host's profile, through the comparison test binary test, in a
// folder dir of workspaces/ and recordings/ of its own.
type comparer struct {
	h         *host
	env       *runEnv
	test, dir string
}

// differences runs the agent once on w and returns the lines in which the
// comparison test says the profile differs from it (none: they agree).
func (c *comparer) differences(ctx context.Context, w *hostws.Workspace) ([]string, error) {
	r, err := c.h.record(ctx, c.env, w, 1)
	if err != nil {
		return nil, err
	}
	return c.compare(ctx, w, r)
}

// compare writes w and r into c.dir and runs the comparison test on them.
func (c *comparer) compare(ctx context.Context, w *hostws.Workspace, r *hostws.Recording) ([]string, error) {
	os.RemoveAll(c.dir)
	data, err := w.Format()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(c.dir, "workspaces"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(c.dir, "workspaces", w.Name+".txtar"), data, 0o644); err != nil {
		return nil, err
	}
	if err := writeRecording(filepath.Join(c.dir, "recordings", c.h.name, w.Name+".json"), r); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(c.dir)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, c.test, "-test.run", "^TestProfilesMatchRecordings$")
	cmd.Dir = "catalog"
	cmd.Env = append(os.Environ(), "SKILLET_HOST_RECORDINGS="+abs)
	out, err := cmd.CombinedOutput()
	diffs := diffLines(string(out))
	if err != nil && len(diffs) == 0 {
		return nil, fmt.Errorf("the comparison test failed without a difference: %w: %s", err, out)
	}
	return diffs, nil
}

// write lays the shrunk workspace out under its name and records it
// job.finalRuns times, and says how the profile differs on it now.
func (c *comparer) write(ctx context.Context, w *hostws.Workspace, job *shrinkJob) error {
	w = clone(w)
	w.Name, w.Describe, w.Hosts = job.name, job.describe, []string{c.h.name}
	r, err := c.h.record(ctx, c.env, w, job.finalRuns)
	if err != nil {
		return err
	}
	diffs, err := c.compare(ctx, w, r)
	if err != nil {
		return err
	}
	data, err := w.Format()
	if err != nil {
		return err
	}
	file := filepath.Join(job.dir, "workspaces", w.Name+".txtar")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return err
	}
	if err := writeRecording(filepath.Join(job.dir, "recordings", c.h.name, w.Name+".json"), r); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "shrink: wrote %s (%d files) and its recording (%d runs); the profile differs in:\n  %s\n",
		file, len(w.Files), job.finalRuns, strings.Join(diffs, "\n  "))
	return nil
}

// diffLines picks the lines of the comparison test's output that name a
// skill one side lists and the other does not.
func diffLines(out string) []string {
	var ds []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		for _, m := range []string{"(host lists it): ", "(host does not list it): ", " copies of "} {
			if strings.Contains(l, m) {
				ds = append(ds, l)
				break
			}
		}
	}
	return ds
}

// diffKey is what identifies a difference while its workspace shrinks:
// which side lists the skill, and where it lies ("" when the host shows
// no paths), not its name or description, which shrinking may change.
// The comparison test writes "missing (host lists it)" for a skill only
// the host lists and "extra (host does not list it)" for one only the
// profile lists (prefixed "observation N: " for a host that picks one of
// several copies, where it may also say how many copies of a name it saw).
func diffKey(line string) string {
	side := "profile"
	switch {
	case strings.Contains(line, " copies of "):
		name, _, _ := strings.Cut(line[strings.Index(line, " copies of ")+len(" copies of "):], " where")
		return "copies " + name
	case strings.Contains(line, "(host lists it)"):
		side = "host"
	}
	at := ""
	if i := strings.LastIndex(line, `" at `); i >= 0 {
		at = line[i+len(`" at `):]
	}
	return side + " " + at
}
