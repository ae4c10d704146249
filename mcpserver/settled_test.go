package mcpserver

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/skillet-go/skillet/catalog"
)

// TestEditBeforeWatchIsSeen holds the reload after one to trusting a skill
// as unchanged only where every folder of it was watched before the last
// reload began. A folder whose watch the last reload set (its creation
// was lost to an overflow, so its watch comes from the sync after the
// walk read it) can change before the watch is set, unseen: a file
// edited there must still be served as it is at the next reload, made by
// an edit elsewhere. Without the check the next reload keeps the skill
// and serves the bytes the walk read.
func TestEditBeforeWatchIsSeen(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"a/one/SKILL.md":            skillMD("one", "The first skill.", "One.\n"),
		"a/one/references/guide.md": "# Guide\n",
	})
	ctx := t.Context()
	s, w, markers := watchedFolderA(t, ws)
	step := 0
	marker := func() string { step++; return filepath.Join(markers, "m"+string(rune('0'+step))) }
	write := func(rel, text string) {
		t.Helper()
		writeTree(t, ws, map[string]string{rel: text})
	}
	for _, tc := range []struct{ name, created, late, elsewhere string }{
		{"a skill folder", "a/two/references/r.md", "a/two/references/r.md", "a/one/references/guide.md"},
		{"a folder in a skill watched long", "a/one/extra/f.md", "a/one/extra/f.md", "a/two/references/r.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.created == "a/two/references/r.md" {
				write("a/two/SKILL.md", skillMD("two", "The second skill.", "Two.\n"))
			}
			write(tc.created, "v1\n")
			// The notifications of the creation are lost: the queue
			// overflowed, so the next reload reads every skill.
			w.lose(t, marker())
			w.full = "the file notification queue overflowed"
			// The edit comes after that reload's walk read the folder
			// and before the sync after it watches the folder.
			w.built = func() { write(tc.late, "v2, after the walk read v1\n"); w.built = nil }
			w.reload(ctx)
			// An edit in another skill brings the next reload.
			write(tc.elsewhere, "edited elsewhere, "+tc.name+"\n")
			if !w.take(t, marker()) {
				t.Fatal("the edit elsewhere calls for no reload")
			}
			w.reload(ctx)
			got := s.snap.Load()
			full, err := s.build(ctx, got, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := snapDiff(got, full); d != "" {
				t.Fatalf("an edit in %s made before its watch is not served: %s", tc.late, d)
			}
		})
	}
}

// lose drops the file notifications that came before marker, as an
// overflowed queue does.
func (w *watcher) lose(t *testing.T, marker string) {
	t.Helper()
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case ev := <-w.fw.Events:
			if ev.Name == marker {
				return
			}
		case <-w.fw.Errors:
		case <-time.After(20 * time.Second):
			t.Fatal("the marker's notification did not come within 20s")
		}
	}
}

// TestFolderWatchedAfterReloadIsReadAgain holds the reload that follows a
// reload whose sync watched a folder the reload found: a skill file
// written whole only after the walk read it half written (os.WriteFile
// truncates, then writes) and before its folder's watch raises no event,
// and no other change may come to bring a reload. Without the follow-up
// reload the skill stays unserved. (CI saw this as TestReload waiting 20s
// for a list_changed that never came.)
func TestFolderWatchedAfterReloadIsReadAgain(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"a/one/SKILL.md": skillMD("one", "The first skill.", "One.\n")})
	ctx := t.Context()
	s, w, markers := watchedFolderA(t, ws)
	// The folder and its empty file come before the watch of the folder:
	// their notifications are lost, and the next reload reads every skill.
	writeTree(t, ws, map[string]string{"a/two/SKILL.md": ""})
	w.lose(t, filepath.Join(markers, "m1"))
	w.full = "the file notification queue overflowed"
	w.built = func() {
		writeTree(t, ws, map[string]string{"a/two/SKILL.md": skillMD("two", "The second skill.", "Two.\n")})
		w.built = nil
	}
	if !w.reload(ctx) {
		t.Fatal("a reload whose sync watched a new folder calls for no follow-up")
	}
	if _, ok := s.snap.Load().byName["two"]; ok {
		t.Fatal("the first reload served two: the test no longer writes it after the walk")
	}
	if w.reload(ctx) {
		t.Error("the follow-up reload, which watched nothing new, calls for another")
	}
	got := s.snap.Load()
	if _, ok := got.byName["two"]; !ok {
		t.Fatal("two, written whole after the walk and before the watch, is not served after the follow-up reload")
	}
	full, err := s.build(ctx, got, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := snapDiff(got, full); d != "" {
		t.Fatalf("the follow-up reload differs from a full one: %s", d)
	}
}

// watchedFolderA serves the skills of ws/a alone (no user root, no
// configuration file) and starts its watcher (startWatcher).
func watchedFolderA(t *testing.T, ws string) (*Server, *watcher, string) {
	t.Helper()
	return watchedRoots(t, ws, "a")
}

// watchedRoots serves the skills of the project roots dirs of ws alone
// (no user root, no configuration file) and starts its watcher
// (startWatcher).
func watchedRoots(t *testing.T, ws string, dirs ...string) (*Server, *watcher, string) {
	t.Helper()
	c, err := catalog.New(t.Context(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, Directories: dirs})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, markers := startWatcher(t, s)
	return s, w, markers
}

// TestEditDuringHandoverIsSeen holds the reload that follows one whose
// sync moved a folder's watch from one path to another path to the same
// folder: the root mirror is a link to the root skills, and its path
// holds the watch; the link is removed and the notifications are lost (an
// overflow), so the sync after the full reload drops the path. Between
// the removal of the watch and its addition under the other path a change
// raises no event, so the reload must call for a follow-up, and after it
// a skill made in between (handover) is served. Mutation it catches: the
// moved watch not noted (unwatch's w.added), which with a watch set
// during the last pass trusted (watchedSince's <) no test caught.
func TestEditDuringHandoverIsSeen(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("a root that is a symlink to another needs symlinks a test can make")
	}
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"skills/one/SKILL.md": skillMD("one", "The first skill.", "One.\n")})
	if err := os.Symlink("skills", filepath.Join(ws, "mirror")); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	s, w, markers := watchedRoots(t, ws, "skills", "mirror")
	folder, linked := filepath.Join(ws, "skills"), filepath.Join(ws, "mirror")
	wd := w.watched[folder]
	if wd == nil || w.watched[linked] == nil || len(w.ids[wd.id]) != 2 {
		t.Fatalf("the root folder is not watched under its two paths: %v", w.ids)
	}
	// The sync watched the paths in map order: the watch is put under
	// the link's path, as a sync that met it first does.
	if w.ids[wd.id][0] == folder {
		role := wd.role
		w.unwatch(folder)
		w.add(folder, role)
		w.added = w.added[:0]
	}
	handed := false
	w.handover = func(from, to string) {
		if from == linked && to == folder {
			writeTree(t, ws, map[string]string{"skills/two/SKILL.md": skillMD("two", "The second skill.", "Two.\n")})
			handed = true
		}
	}
	if err := os.Remove(linked); err != nil {
		t.Fatal(err)
	}
	w.lose(t, filepath.Join(markers, "m1"))
	w.full = "the file notification queue overflowed"
	recheck := w.reload(ctx)
	if !handed {
		t.Fatal("the watch was not handed from the link's path to the folder's: the test no longer sets its scene")
	}
	if _, ok := s.snap.Load().byName["two"]; ok {
		t.Fatal("the reload served two, made after its walk: the test no longer makes it after the walk")
	}
	if !recheck {
		t.Fatal("a reload whose sync moved a watch calls for no follow-up: two, made meanwhile, waits for another change")
	}
	w.reload(ctx)
	got := s.snap.Load()
	if _, ok := got.byName["two"]; !ok {
		t.Fatal("two, made while the watch moved, is not served after the follow-up reload")
	}
	full, err := s.build(ctx, got, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := snapDiff(got, full); d != "" {
		t.Fatalf("the follow-up reload differs from a full one: %s", d)
	}
}
