// Command floor is the I/O floor skillet's discovery is measured against: a
// sequential walker that reads every SKILL.md in full, with no parsing, and
// prints the count and bytes read.
//
//	go run ./bench/floor ROOT         prune: a folder holding SKILL.md is a
//	                                  skill; its other files are not listed
//	go run ./bench/floor -full ROOT   list every folder, as
//	                                  "find ROOT -name SKILL.md | xargs cat"
//
// The pruning walk is the fair floor for discovery: it does the least any
// walker must do (one open per skill folder, one directory read per grouping
// folder) and nothing else, on one goroutine. Like skillet, it skips entries
// whose names start with "." or "_" and node_modules folders.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

func main() {
	full := flag.Bool("full", false, "walk every folder (no pruning at skill folders)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: floor [-full] ROOT")
		os.Exit(2)
	}
	var w walk
	var err error
	if *full {
		err = w.full(flag.Arg(0))
	} else {
		err = w.prune(flag.Arg(0))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d bytes\n", w.files, w.bytes)
}

type walk struct{ files, bytes int64 }

func (w *walk) full(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Name() == "SKILL.md" && d.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil {
				w.files++
				w.bytes += int64(len(b))
			}
		}
		return nil
	})
}

// prune reads dir/SKILL.md when it exists and stops there; otherwise it
// reads the folder and walks into its subfolders.
func (w *walk) prune(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "SKILL.md"))
	if err == nil {
		w.files++
		w.bytes += int64(len(b))
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || name[0] == '.' || name[0] == '_' || name == "node_modules" {
			continue
		}
		w.prune(filepath.Join(dir, name))
	}
	return nil
}
