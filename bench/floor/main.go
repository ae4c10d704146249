// Command floor is the I/O floor skillet's discovery is measured against: it
// walks a folder and reads every SKILL.md in full, with no parsing, the way
// "find ROOT -name SKILL.md | xargs cat" would, and prints the count and
// bytes read.
//
//	go run ./bench/floor ROOT
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor ROOT")
		os.Exit(2)
	}
	var files, bytes int64
	err := filepath.WalkDir(os.Args[1], func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Name() == "SKILL.md" && d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err == nil {
				files++
				bytes += int64(len(b))
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d bytes\n", files, bytes)
}
