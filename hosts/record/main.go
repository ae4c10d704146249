//go:build unix

// Command record runs the real coding agents on the workspaces of
// hosts/testdata/workspaces and records which skills each one lists, with
// the names and descriptions its model is shown. hosts/record.sh installs
// the pinned agents and runs it; hosts/README.md describes the formats.
//
//	go run ./hosts/record [--record] [--host H,...] [--workspace W,...] [--runs N] [--jobs N] [--raw DIR]
//	go run ./hosts/record --shrink HOST/WORKSPACE --name NAME --describe TEXT [--target TEXT] [--max-runs N]
//
// Without --record it compares what the agents list now with the
// recordings and exits 1 on any difference; with --record it writes them.
// With --shrink it makes a disagreement between an agent and its profile
// as small as it can, running the agent on each smaller candidate, and
// writes the result as a new hand-made workspace with its recording.
// The agents are taken from $SKILLET_HOSTS_BIN (the .bin folder of the
// npm install). Every run gets a fresh sandbox with an isolated HOME and
// no network beyond a localhost server of its own.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skillet-go/skillet/internal/hostws"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

func main() {
	record := flag.Bool("record", false, "write the recordings instead of comparing with them")
	hostList := flag.String("host", "", "comma-separated hosts to run (default all)")
	wsList := flag.String("workspace", "", "comma-separated workspaces to run (default all)")
	runs := flag.Int("runs", 3, "runs per host and workspace, to notice nondeterminism")
	jobs := flag.Int("jobs", 2, "runs at once")
	timeout := flag.Duration("timeout", 5*time.Minute, "time limit of one agent run (the agents are slow on a busy machine)")
	raw := flag.String("raw", "", "folder to keep each run's raw agent output in")
	dir := flag.String("dir", "hosts/testdata", "folder holding workspaces/ and recordings/")
	fromRaw := flag.String("from-raw", "", "make the recordings from the raw output a --raw run kept in this folder (no agent is run but for its version)")
	normalize := flag.Bool("normalize", false, "only rewrite the existing recordings with observations that differ in order alone merged (no agent is run)")
	generate := flag.String("generate", "", "run on the generated workspaces of these seeds (A-B or A,B,...; hostws.Generate) instead of the hand-made ones; their recordings are DIR/generated/HOST/genV-SEED.json")
	shrink := flag.String("shrink", "", "HOST/WORKSPACE: shrink the disagreement of HOST's profile with HOST on WORKSPACE (genV-SEED or a hand-made one) to a minimal workspace, written as DIR/workspaces/NAME.txtar with its recording")
	name := flag.String("name", "", "with --shrink: the name of the workspace written (say what it shows)")
	describe := flag.String("describe", "", "with --shrink: its describe: line")
	target := flag.String("target", "", "with --shrink: keep the first difference whose line holds this text (default: the first difference)")
	maxRuns := flag.Int("max-runs", 120, "with --shrink: at most this many agent runs on candidates (one at a time)")
	flag.Parse()
	if *fromRaw != "" {
		if err := recordFromRaw(*fromRaw, split(*hostList), split(*wsList), *dir); err != nil {
			fmt.Fprintln(os.Stderr, "record:", err)
			os.Exit(1)
		}
		return
	}
	if *shrink != "" {
		host, ws, _ := strings.Cut(*shrink, "/")
		job := &shrinkJob{host: host, workspace: ws, name: *name, describe: *describe, target: *target,
			maxRuns: *maxRuns, finalRuns: *runs, timeout: *timeout, dir: *dir}
		if err := runShrink(context.Background(), job); err != nil {
			fmt.Fprintln(os.Stderr, "record:", err)
			os.Exit(1)
		}
		return
	}
	if *normalize {
		if err := normalizeAll(filepath.Join(*dir, "recordings")); err != nil {
			fmt.Fprintln(os.Stderr, "record:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*record, split(*hostList), split(*wsList), *generate, *runs, *jobs, *timeout, *raw, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// run runs the agents named (all when nil) on the workspaces chosen
// (selectWorkspaces), jobs cells at a time, each runs times: with record,
// it writes each cell's recording; without, it compares each with the
// recording on disk and fails when one differs. raw, when set, keeps the
// agents' raw output there.
func run(record bool, hostNames, wsNames []string, generate string, runs, jobs int, timeout time.Duration, raw, dir string) error {
	bin := os.Getenv("SKILLET_HOSTS_BIN")
	if bin == "" {
		return fmt.Errorf("SKILLET_HOSTS_BIN is not set: run hosts/record.sh, which installs the agents and sets it")
	}
	wss, recDir, err := selectWorkspaces(dir, wsNames, generate)
	if err != nil {
		return err
	}
	hs, err := selectHosts(hostNames)
	if err != nil {
		return err
	}
	srv, err := startCapture()
	if err != nil {
		return err
	}
	defer srv.close()
	env := &runEnv{bin: bin, corpus: testcorpus.Find(), srv: srv, raw: raw, timeout: timeout,
		compileCache: filepath.Join(filepath.Dir(filepath.Dir(bin)), ".node-compile-cache")}

	ctx := context.Background()
	for _, h := range hs {
		if err := h.prepare(ctx, env); err != nil {
			if h.ver == "" {
				fmt.Fprintf(os.Stderr, "%s: cannot run: %v\n", h.name, err)
				continue
			}
			return err
		}
	}
	cells := cellsOf(hs, wss)
	results, errs := recordCells(ctx, env, cells, runs, jobs, record, recDir)
	diffs := 0
	for i, c := range cells {
		if !c.checked(results[i], errs[i], record, recDir) {
			diffs++
		}
	}
	if record {
		fmt.Fprintf(os.Stderr, "recorded %d cells\n", len(cells)-diffs)
	} else {
		fmt.Fprintf(os.Stderr, "compared %d cells, %d differ\n", len(cells), diffs)
	}
	if diffs > 0 {
		return fmt.Errorf("%d cells failed or differ", diffs)
	}
	return nil
}

// selectHosts returns the hosts named, in the order of hosts (all of them
// when names is nil); an unknown name is an error.
func selectHosts(names []string) ([]*host, error) {
	for _, n := range names {
		if hostByName(n) == nil {
			return nil, fmt.Errorf("unknown host %q", n)
		}
	}
	var hs []*host
	for _, h := range hosts {
		if names == nil || contains(names, h.name) {
			hs = append(hs, h)
		}
	}
	return hs, nil
}

// cell is one agent on one workspace.
type cell struct {
	h  *host
	ws *hostws.Workspace
}

// cellsOf pairs every host that can run (prepare found its version) with
// every workspace made for it.
func cellsOf(hs []*host, wss []*hostws.Workspace) []cell {
	var cells []cell
	for _, h := range hs {
		if h.ver == "" {
			continue
		}
		for _, w := range wss {
			if w.ForHost(h.name) {
				cells = append(cells, cell{h, w})
			}
		}
	}
	return cells
}

// recordCells runs every cell, jobs at a time, and returns each one's
// recording or error, in cells' order; with record, each recording is
// written to recDir as soon as it is made, so that a long run keeps what
// it has. It prints a dot a cell on stderr.
func recordCells(ctx context.Context, env *runEnv, cells []cell, runs, jobs int, record bool, recDir string) ([]*hostws.Recording, []error) {
	results := make([]*hostws.Recording, len(cells))
	errs := make([]error, len(cells))
	sem := make(chan struct{}, max(jobs, 1))
	var wg sync.WaitGroup
	for i, c := range cells {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i], errs[i] = c.h.record(ctx, env, c.ws, runs)
			if record && errs[i] == nil {
				errs[i] = writeRecording(c.file(recDir), results[i])
			}
			fmt.Fprintf(os.Stderr, ".")
		}()
	}
	wg.Wait()
	fmt.Fprintln(os.Stderr)
	return results, errs
}

// file is the cell's recording in recDir: AGENT/WORKSPACE.json.
func (c cell) file(recDir string) string {
	return filepath.Join(recDir, c.h.name, c.ws.Name+".json")
}

// checked reports whether the cell's run succeeded and, unless record,
// gave what its recording in recDir says; it prints why not (a run's error
// on stderr, a missing recording or the difference on stdout).
func (c cell) checked(r *hostws.Recording, err error, record bool, recDir string) bool {
	name := c.h.name + "/" + c.ws.Name
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return false
	}
	if record {
		return true
	}
	old, err := hostws.ReadRecording(c.file(recDir))
	if err != nil {
		fmt.Printf("%s: no recording to compare with (%v)\n", name, err)
		return false
	}
	if d := compareRecordings(old, r); d != "" {
		fmt.Printf("%s: differs from the recording:\n%s", name, d)
		return false
	}
	return true
}

// prepare asks h's version (h.ver) and, for a host whose built-ins are
// found by a baseline, lists an empty workspace once (h.baseline). An
// error with h.ver unset means the agent cannot run at all.
func (h *host) prepare(ctx context.Context, env *runEnv) error {
	v, err := h.version(ctx, env)
	if err != nil {
		return err
	}
	h.ver = v
	if h.builtinsByBaseline {
		b, err := h.listOnce(ctx, env, &hostws.Workspace{Name: "baseline", Cwd: "proj", Git: []string{"proj"}}, 0)
		if err != nil {
			return fmt.Errorf("%s: baseline: %w", h.name, err)
		}
		h.baseline = b
	}
	fmt.Fprintf(os.Stderr, "%s %s\n", h.name, v)
	return nil
}

// selectWorkspaces returns the workspaces to run and the folder their
// recordings go to: the hand-made ones of DIR/workspaces (those named in
// wsNames, or all) with DIR/recordings, or, with generate set, the
// generated workspaces of those seeds with DIR/generated.
func selectWorkspaces(dir string, wsNames []string, generate string) ([]*hostws.Workspace, string, error) {
	if generate != "" {
		seeds, err := parseSeeds(generate)
		if err != nil {
			return nil, "", err
		}
		var wss []*hostws.Workspace
		for _, s := range seeds {
			wss = append(wss, hostws.Generate(s))
		}
		return wss, filepath.Join(dir, "generated"), nil
	}
	all, err := hostws.LoadDir(filepath.Join(dir, "workspaces"))
	if err != nil {
		return nil, "", err
	}
	var wss []*hostws.Workspace
	for _, w := range all {
		if wsNames == nil || contains(wsNames, w.Name) {
			wss = append(wss, w)
		}
	}
	if len(wss) == 0 {
		return nil, "", fmt.Errorf("no workspace selected")
	}
	return wss, filepath.Join(dir, "recordings"), nil
}

// parseSeeds reads "A-B" (A to B inclusive) or "A,B,C".
func parseSeeds(s string) ([]uint64, error) {
	var out []uint64
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseUint(strings.TrimSpace(lo), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--generate %q: %w", s, err)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(strings.TrimSpace(hi), 10, 64); err != nil || b < a {
				return nil, fmt.Errorf("--generate %q: bad range %q", s, part)
			}
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	return out, nil
}

// recordFromRaw makes recordings from the raw output of an earlier run:
// RAW/AGENT/WORKSPACE/runN-FILE, paths taken relative to the sandbox root
// (the folder sb of the recorder's temporary sandbox). Cells with fewer
// than 3 complete runs are skipped and named.
func recordFromRaw(raw string, hostNames, wsNames []string, dir string) error {
	bin := os.Getenv("SKILLET_HOSTS_BIN")
	wss, err := hostws.LoadDir(filepath.Join(dir, "workspaces"))
	if err != nil {
		return err
	}
	srv, err := startCapture()
	if err != nil {
		return err
	}
	defer srv.close()
	env := &runEnv{bin: bin, srv: srv, timeout: 2 * time.Minute}
	for _, h := range hosts {
		if hostNames != nil && !contains(hostNames, h.name) {
			continue
		}
		ver, err := h.version(context.Background(), env)
		if err != nil {
			return err
		}
		baseline, err := h.rawBaseline(raw)
		if err != nil {
			return err
		}
		for _, ws := range wss {
			if (wsNames != nil && !contains(wsNames, ws.Name)) || !ws.ForHost(h.name) {
				continue
			}
			r := h.recordingFromRaw(raw, ws, ver, baseline)
			if r.Runs < 3 {
				fmt.Fprintf(os.Stderr, "%s/%s: %d complete runs in %s, not recorded\n", h.name, ws.Name, r.Runs, raw)
				continue
			}
			if err := writeRecording(filepath.Join(dir, "recordings", h.name, ws.Name+".json"), r); err != nil {
				return err
			}
		}
	}
	return nil
}

// rawBaseline is what h listed on the empty workspace in the raw output
// RAW/AGENT/baseline/run0-FILE, for a host whose built-ins are found by a
// baseline (nil for any other).
func (h *host) rawBaseline(raw string) ([]entry, error) {
	if !h.builtinsByBaseline {
		return nil, nil
	}
	data, err := os.ReadFile(filepath.Join(raw, h.command[0], "baseline", "run0-"+h.raw))
	if err != nil {
		return nil, fmt.Errorf("%s: no baseline: %w", h.name, err)
	}
	return h.parse(data)
}

// recordingFromRaw is h's recording of ws (version ver) from the runs of
// the raw output RAW/AGENT/WORKSPACE/runN-FILE, N from 1 up to the first
// missing, empty or unreadable one (Runs says how many were read): each
// run's skills less those of the baseline, which are the built-ins.
func (h *host) recordingFromRaw(raw string, ws *hostws.Workspace, ver string, baseline []entry) *hostws.Recording {
	r := &hostws.Recording{Host: h.name, Version: ver, Command: h.command, Workspace: ws.Name, Notes: h.notes}
	builtin := map[string]bool{}
	for n := 1; ; n++ {
		data, err := os.ReadFile(filepath.Join(raw, h.command[0], ws.Name, fmt.Sprintf("run%d-%s", n, h.raw)))
		if err != nil || len(data) == 0 {
			break
		}
		es, err := h.parse(data)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s/%s run %d: %v\n", h.name, ws.Name, n, err)
			break
		}
		r.Observed = append(r.Observed, observation(es, baseline, builtin))
		r.Runs = n
	}
	mergeOrders(r)
	for b := range builtin {
		r.Builtin = append(r.Builtin, b)
	}
	sort.Strings(r.Builtin)
	return r
}

// observation is what one run listed, es, less one entry for each of the
// baseline's (the same name and description), whose names go into builtin;
// paths are taken relative to the sandbox root.
func observation(es, baseline []entry, builtin map[string]bool) hostws.Observation {
	left := append([]entry(nil), baseline...)
	o := hostws.Observation{Skills: []hostws.Skill{}}
	for _, e := range es {
		for j, b := range left {
			if b.Name == e.Name && b.Description == e.Description {
				e.Builtin = true
				left = append(left[:j], left[j+1:]...)
				break
			}
		}
		if e.Builtin {
			builtin[e.Name] = true
			continue
		}
		p := ""
		if m := sandboxInPath.FindStringIndex(e.Path); m != nil {
			p = e.Path[m[1]:]
		}
		o.Skills = append(o.Skills, hostws.Skill{Name: e.Name, Description: e.Description, Path: p})
	}
	return o
}

// sandboxInPath finds the sandbox root's last element ("sb", padded with
// x to hostws.SandboxRootLen) in a path an agent printed.
var sandboxInPath = regexp.MustCompile(`/sbx*/`)

func normalizeAll(dir string) error {
	rs, err := hostws.LoadRecordings(dir)
	if err != nil {
		return err
	}
	for _, r := range rs {
		mergeOrders(r)
		if err := writeRecording(filepath.Join(dir, r.Host, r.Workspace+".json"), r); err != nil {
			return err
		}
	}
	return nil
}

func writeRecording(file string, r *hostws.Recording) error {
	data, err := r.Encode()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}

// compareRecordings says how now differs from old ("" when it does not):
// the version, and each observed list that one has and the other lacks.
func compareRecordings(old, now *hostws.Recording) string {
	var b strings.Builder
	if old.Version != now.Version {
		fmt.Fprintf(&b, "  version %s, recorded on %s\n", now.Version, old.Version)
	}
	has := func(list []hostws.Observation, o hostws.Observation) bool {
		for _, x := range list {
			if sameSkills(x, o) {
				return true
			}
		}
		return false
	}
	for _, o := range now.Observed {
		if !has(old.Observed, o) {
			fmt.Fprintf(&b, "  new list: %s\n", describe(o))
		}
	}
	for _, o := range old.Observed {
		if !has(now.Observed, o) {
			fmt.Fprintf(&b, "  recorded list not seen: %s\n", describe(o))
		}
	}
	return b.String()
}

func describe(o hostws.Observation) string {
	var parts []string
	for _, s := range o.Skills {
		d := s.Description
		if len(d) > 40 {
			d = d[:40] + "..."
		}
		parts = append(parts, fmt.Sprintf("%s(%q)", s.Name, d))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// runEnv is what every run shares.
type runEnv struct {
	bin, corpus, raw string
	srv              *capture
	timeout          time.Duration
	compileCache     string
}

// sandboxEnv is the environment of an agent run in sb: nothing from the
// caller's environment except PATH (with the agents first), and HOME, the
// XDG folders and the temporary folder inside the sandbox.
func (e *runEnv) sandboxEnv(sb *hostws.Sandbox, extra ...string) []string {
	tmp := filepath.Join(sb.Root, ".tmp")
	os.MkdirAll(tmp, 0o755)
	env := []string{
		"PATH=" + e.bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + sb.Home,
		"USERPROFILE=" + sb.Home,
		"XDG_CONFIG_HOME=" + filepath.Join(sb.Home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(sb.Home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(sb.Home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(sb.Home, ".local", "state"),
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"CI=1",
	}
	if e.compileCache != "" {
		// V8's code cache for the agents' scripts (Node 22): it holds no
		// state of the agents, only makes their start cheaper.
		env = append(env, "NODE_COMPILE_CACHE="+e.compileCache)
	}
	return append(env, extra...)
}

// materialize lays ws out in a fresh temporary sandbox.
func (e *runEnv) materialize(ws *hostws.Workspace) (*hostws.Sandbox, func(), error) {
	dir, err := os.MkdirTemp("", "skillet-hosts-")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	root, err := hostws.SandboxRoot(dir)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	sb, err := ws.Materialize(root, &hostws.Options{CorpusDir: e.corpus, GitInit: true})
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	// Report paths through the resolved sandbox too (agents may resolve).
	return sb, cleanup, nil
}

// exec runs an agent with a time limit and returns its standard output
// and standard error. Both go to files, not pipes: an agent that exits
// right after a large write to a pipe can lose the rest of it (OpenCode
// did, at 64 KiB).
func (e *runEnv) exec(ctx context.Context, sb *hostws.Sandbox, env []string, args ...string) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(e.bin, args[0]), args[1:]...)
	cmd.Dir = sb.Cwd
	cmd.Env = env
	so, err := os.CreateTemp(sb.Root, ".stdout-")
	if err != nil {
		return nil, nil, err
	}
	defer so.Close()
	se, err := os.CreateTemp(sb.Root, ".stderr-")
	if err != nil {
		return nil, nil, err
	}
	defer se.Close()
	cmd.Stdout, cmd.Stderr = so, se
	setProcessGroup(cmd)
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("no answer within %v: %w", e.timeout, err)
	}
	stdout, _ = os.ReadFile(so.Name())
	stderr, _ = os.ReadFile(se.Name())
	return stdout, stderr, err
}

// keepRaw stores one run's raw output when --raw is set.
func (e *runEnv) keepRaw(host, ws string, n int, name string, data []byte) {
	if e.raw == "" {
		return
	}
	d := filepath.Join(e.raw, host, ws)
	os.MkdirAll(d, 0o755)
	os.WriteFile(filepath.Join(d, fmt.Sprintf("run%d-%s", n, name)), data, 0o644)
}

// relPath turns an absolute path an agent printed into a sandbox-relative
// one ("" for "" or a path outside the sandbox, which then stays absolute
// only in the raw output).
func relPath(sb *hostws.Sandbox, p string) string {
	if p == "" {
		return ""
	}
	if r := sb.Rel(p); r != "" {
		return r
	}
	if real, err := filepath.EvalSymlinks(sb.Root); err == nil {
		r := (&hostws.Sandbox{Root: real}).Rel(p)
		return r
	}
	return ""
}

// record runs h on ws runs times and makes the recording.
func (h *host) record(ctx context.Context, env *runEnv, ws *hostws.Workspace, runs int) (*hostws.Recording, error) {
	r := &hostws.Recording{Host: h.name, Version: h.ver, Command: h.command, Workspace: ws.Name, Runs: runs, Notes: h.notes}
	if seed, ok := generatedSeed(ws.Name); ok {
		r.Generator, r.Seed = hostws.GenVersion, seed
	}
	builtin := map[string]bool{}
	for n := 1; n <= runs; n++ {
		es, err := h.listOnce(ctx, env, ws, n)
		if err != nil {
			return nil, fmt.Errorf("run %d: %w", n, err)
		}
		var o hostws.Observation
		o.Skills = []hostws.Skill{}
		for _, e := range es {
			if e.Builtin {
				builtin[e.Name] = true
				continue
			}
			o.Skills = append(o.Skills, hostws.Skill{Name: e.Name, Description: e.Description, Path: e.Path})
		}
		r.Observed = append(r.Observed, o)
	}
	if r.Generator != 0 && len(r.Observed[0].Skills) > digestOver {
		r.DigestDescriptions()
	}
	mergeOrders(r)
	for b := range builtin {
		r.Builtin = append(r.Builtin, b)
	}
	sort.Strings(r.Builtin)
	return r, nil
}

// digestOver is the number of skills past which a generated recording
// keeps each description as its digest (hostws.Digest), so that catalogs
// of up to 1,000 skills stay small in the repository.
const digestOver = 60

// generatedSeed returns the seed of a generated workspace's name.
func generatedSeed(name string) (uint64, bool) {
	rest, ok := strings.CutPrefix(name, fmt.Sprintf("gen%d-", hostws.GenVersion))
	if !ok {
		return 0, false
	}
	seed, err := strconv.ParseUint(rest, 10, 64)
	return seed, err == nil
}

// orderVaries is appended to the notes of a recording whose runs listed
// the same skills in different orders.
const orderVaries = " The order of the list differed between runs (the first order seen is kept)."

// mergeOrders keeps one observation per distinct multiset of skills (the
// first seen, in its order), notes when the order alone differed, and sets
// Deterministic.
func mergeOrders(r *hostws.Recording) {
	var kept []hostws.Observation
	reordered := false
	for _, o := range r.Observed {
		dup := false
		for _, k := range kept {
			if sameSkills(k, o) {
				dup = true
				if !k.Equal(o) {
					reordered = true
				}
				break
			}
		}
		if !dup {
			kept = append(kept, o)
		}
	}
	r.Observed = kept
	r.Deterministic = len(kept) == 1
	if reordered && !strings.Contains(r.Notes, orderVaries) {
		r.Notes += orderVaries
	}
}

func sameSkills(a, b hostws.Observation) bool {
	if len(a.Skills) != len(b.Skills) {
		return false
	}
	n := map[hostws.Skill]int{}
	for _, s := range a.Skills {
		n[s]++
	}
	for _, s := range b.Skills {
		n[s]--
		if n[s] < 0 {
			return false
		}
	}
	return true
}

// listOnce materializes ws, runs h's listing once and returns its entries
// with sandbox-relative paths, built-ins marked.
func (h *host) listOnce(ctx context.Context, env *runEnv, ws *hostws.Workspace, n int) ([]entry, error) {
	sb, cleanup, err := env.materialize(ws)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	es, err := h.list(ctx, env, sb, ws, n)
	if err != nil {
		return nil, err
	}
	for i := range es {
		if es[i].Builtin {
			continue
		}
		if es[i].Path != "" {
			if strings.HasPrefix(es[i].Path, "/") {
				es[i].Path = relPath(sb, es[i].Path)
			}
		}
	}
	if h.builtinsByBaseline {
		left := append([]entry(nil), h.baseline...)
		for i := range es {
			for j, b := range left {
				// A built-in listed by name only (Claude Code's budget
				// spent) is still the built-in.
				if b.Name == es[i].Name && (b.Description == es[i].Description || es[i].Description == "") {
					es[i].Builtin = true
					left = append(left[:j], left[j+1:]...)
					break
				}
			}
		}
	}
	return es, nil
}
