//go:build linux

package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// The hostile-input suite (issue 6): folders a stranger could hand us. Each
// case must finish, report a diagnostic, keep the other skills loaded, and
// never open a file outside the boundary.

// finishes runs f and fails the test if it has not returned within a
// generous limit: the assertion is only that it ends.
func finishes(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		t.Fatal("did not finish")
	}
}

// hostileList lists the workspace of e (no user roots) inside finishes.
func hostileList(t *testing.T, e testEnv, o *Options) *Listing {
	t.Helper()
	var l *Listing
	finishes(t, func() {
		if o == nil {
			o = &Options{}
		}
		o.NoUser = true
		c, err := New(context.Background(), e.opts(o))
		if err != nil {
			t.Error(err)
			return
		}
		l, err = c.List(context.Background())
		if err != nil {
			t.Error(err)
			return
		}
		checkEach(t, e.opts(o), l)
	})
	if l == nil {
		t.FailNow()
	}
	return l
}

func countCode(l *Listing, code skill.Code) int {
	n := 0
	for _, d := range l.Diagnostics {
		if d.Code == code {
			n++
		}
	}
	return n
}

// inotify watches folders for any open or read, to prove that nothing
// outside the boundary is ever opened.
type openWatch struct {
	fd int
}

func watchOpens(t *testing.T, dirs ...string) *openWatch {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify unavailable: %v", err)
	}
	for _, d := range dirs {
		if _, err := syscall.InotifyAddWatch(fd, d, syscall.IN_OPEN|syscall.IN_ACCESS); err != nil {
			t.Fatalf("watch %s: %v", d, err)
		}
	}
	t.Cleanup(func() { syscall.Close(fd) })
	return &openWatch{fd: fd}
}

// events returns the names of files opened or read since the watch began.
func (w *openWatch) events() []string {
	var out []string
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(w.fd, buf)
		if n <= 0 || err != nil {
			return out
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := strings.TrimRight(string(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)]), "\x00")
			out = append(out, fmt.Sprintf("%#x %s", ev.Mask, name))
			off += syscall.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

func TestHostileDevices(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/ok/SKILL.md":     skillMD("ok"),
		"skills/zero/SKILL.md":   "-> /dev/zero",
		"skills/random/SKILL.md": "-> /dev/urandom",
		"skills/pipe/<dir>":      "<dir>",
	})
	if err := syscall.Mkfifo(filepath.Join(e.ws, "skills/pipe/SKILL.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	l := hostileList(t, e, nil)
	if diff := cmp.Diff([]string{"ok"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	// Devices are outside the workspace: refused before any open. The
	// FIFO is inside: opened non-blocking and refused as not regular.
	want := []string{"unreadable skills/pipe/SKILL.md", "path-escape skills/random/SKILL.md", "path-escape skills/zero/SKILL.md"}
	if diff := cmp.Diff(want, codes(l, e.ws)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestHostileSparseGiant(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/ok/SKILL.md": skillMD("ok"), "skills/giant/<dir>": "<dir>"})
	p := filepath.Join(e.ws, "skills/giant/SKILL.md")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("---\nname: giant\ndescription: A one-gigabyte file.\n---\n")
	if err := f.Truncate(1 << 30); err != nil { // sparse: a hole of zeros
		t.Skipf("cannot make a sparse file: %v", err)
	}
	f.Close()
	l := hostileList(t, e, nil)
	if diff := cmp.Diff([]string{"ok"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	if countCode(l, diagcode.TooLarge) != 1 || countCode(l, diagcode.InvalidEncoding) != 1 {
		t.Errorf("want too-large and invalid-encoding (the zeros): %v", codes(l, e.ws))
	}
}

// TestHostileManyEmptyFolders puts one and a half times the default folder limit
// (2000 per root) of empty grouping folders beside one skill: the walk
// stops at the limit with one walk-limit and still lists the skill. (It
// made 100,000 folders once; the limit is what is tested, and 3,000 test
// it as well at a thirtieth of the cost. BenchmarkList covers size.)
func TestHostileManyEmptyFolders(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("makes 3,000 folders: skipped with -short")
	}
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/aaa-ok/SKILL.md": skillMD("aaa-ok")})
	for i := range 3_000 {
		if err := os.Mkdir(filepath.Join(e.ws, "skills", fmt.Sprintf("empty-%06d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	l := hostileList(t, e, nil)
	if diff := cmp.Diff([]string{"aaa-ok"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	if countCode(l, diagcode.WalkLimit) != 1 {
		t.Errorf("want one walk-limit: %v", codes(l, e.ws))
	}
}

func TestHostileDeepNesting(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/ok/SKILL.md": skillMD("ok")})
	deep := filepath.Join(e.ws, "skills")
	for range 1000 {
		deep = filepath.Join(deep, "d")
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Skipf("cannot nest 1,000 folders here: %v", err)
	}
	writeTree(t, deep, map[string]string{"bottom/SKILL.md": skillMD("bottom")})
	l := hostileList(t, e, nil)
	if diff := cmp.Diff([]string{"ok"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	if countCode(l, diagcode.WalkLimit) != 1 {
		t.Errorf("want one walk-limit: %v", codes(l, e.ws))
	}
}

func TestHostileSymlinkRing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/ok/SKILL.md": skillMD("ok")})
	n := 10_000
	if testing.Short() {
		n = 1_000 // a ring all the same, at a tenth of the links
	}
	for i := range n {
		link := filepath.Join(e.ws, "skills", fmt.Sprintf("ring-%05d", i))
		if err := os.Symlink(fmt.Sprintf("ring-%05d", (i+1)%n), link); err != nil {
			t.Fatal(err)
		}
	}
	l := hostileList(t, e, nil)
	if diff := cmp.Diff([]string{"ok"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	if got := countCode(l, diagcode.SymlinkLoop); got != n {
		t.Errorf("%d symlink-loop diagnostics, want %d", got, n)
	}
}

func TestHostileChainEscapes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	outside := filepath.Join(filepath.Dir(e.ws), "outside")
	writeTree(t, outside, map[string]string{"target/SKILL.md": skillMD("target"), "file.md": skillMD("file")})
	files := map[string]string{"skills/ok/SKILL.md": skillMD("ok")}
	// hop-1 -> hop-2 -> ... -> hop-9 -> hop-10 -> outside (the tenth hop leaves).
	for i := 1; i < 10; i++ {
		files[fmt.Sprintf("links/hop-%d", i)] = fmt.Sprintf("-> hop-%d", i+1)
	}
	files["links/hop-10"] = "-> " + filepath.Join(outside, "target")
	files["skills/chain"] = "-> ../links/hop-1"
	files["skills/filechain/SKILL.md"] = "-> ../../links/fhop-1"
	for i := 1; i < 10; i++ {
		files[fmt.Sprintf("links/fhop-%d", i)] = fmt.Sprintf("-> fhop-%d", i+1)
	}
	files["links/fhop-10"] = "-> " + filepath.Join(outside, "file.md")
	writeTree(t, e.ws, files)
	w := watchOpens(t, outside, filepath.Join(outside, "target"))
	l := hostileList(t, e, nil)
	if diff := cmp.Diff([]string{"ok"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	want := []string{"path-escape skills/chain", "path-escape skills/filechain/SKILL.md"}
	if diff := cmp.Diff(want, codes(l, e.ws)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if ev := w.events(); len(ev) != 0 {
		t.Errorf("files outside the boundary were opened: %v", ev)
	}
}

func TestHostileNames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/ok/SKILL.md":                skillMD("ok"),
		"skills/new\nline/SKILL.md":         "# Newline\n\nA folder name with a newline.\n",
		"skills/ctrl\x01\x1b[31m/SKILL.md":  skillMD("ctrl"),
		"skills/bad-\xff\xfe-utf8/SKILL.md": "---\ndescription: Invalid UTF-8 in the folder name.\n---\nbody\n",
	})
	l := hostileList(t, e, nil)
	got := names(l)
	want := []string{"bad-utf8", "ctrl", "new-line", "ok"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	for _, s := range l.Skills {
		if strings.ContainsAny(s.Name, "\n\x01\x1b") || !utf8.ValidString(s.Name) {
			t.Errorf("a control or invalid byte reached a name: %q", s.Name)
		}
	}
}

func TestHostileFrontmatter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bomb := "---\nname: bomb\ndescription: d\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\n---\nbody\n"
	huge := "---\nname: huge\ndescription: d\n" + strings.Repeat("key: "+strings.Repeat("v", 90)+"\n", 1<<20/96) + "---\nbody\n"
	writeTree(t, e.ws, map[string]string{
		"skills/ok/SKILL.md":   skillMD("ok"),
		"skills/bomb/SKILL.md": bomb,
		"skills/huge/SKILL.md": huge,
	})
	l := hostileList(t, e, nil)
	if diff := cmp.Diff([]string{"ok"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	want := []string{"parse-error skills/bomb/SKILL.md", "too-large skills/huge/SKILL.md", "parse-error skills/huge/SKILL.md"}
	if diff := cmp.Diff(want, codes(l, e.ws)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	// With a limit large enough to read it all, a megabyte of frontmatter
	// parses (and its keys are reported), still in bounded time.
	l = hostileList(t, e, &Options{MaxSkillBytes: 2 << 20})
	if got := names(l); len(got) != 2 {
		t.Errorf("with maxSkillBytes 2 MiB: %v", got)
	}
}

func TestHostileChangingFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/ok/SKILL.md": skillMD("ok"), "skills/flux/SKILL.md": skillMD("flux")})
	p := filepath.Join(e.ws, "skills/flux/SKILL.md")
	c, err := New(context.Background(), e.opts(&Options{NoUser: true}))
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// Rewrite in place with growing and shrinking content.
			body := skillMD("flux") + strings.Repeat("more text\n", i%50)
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				continue
			}
			for j := 0; j < len(body); j += 7 {
				f.WriteString(body[j:min(j+7, len(body))])
			}
			f.Close()
		}
	})
	finishes(t, func() {
		for range 200 {
			l, err := c.List(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			ok := false
			for _, s := range l.Skills {
				if s.Name == "ok" {
					ok = true
				}
				if s.Name == "flux" && s.Description != "The flux skill." {
					t.Errorf("a torn read was parsed: %q", s.Description)
				}
			}
			if !ok {
				t.Error("the steady skill went missing")
			}
		}
	})
	close(stop)
	wg.Wait()
	if err := os.WriteFile(p, []byte(skillMD("flux")), 0o644); err != nil {
		t.Fatal(err)
	}
	l, _ := c.List(context.Background())
	if diff := cmp.Diff([]string{"flux", "ok"}, names(l)); diff != "" {
		t.Errorf("after the writes stop (-want +got):\n%s", diff)
	}
}
