//go:build unix

// Command abrun times commands against each other in one interleaved batch:
// run i of every command happens before run i+1 of any (A B C A B C ...),
// so drift on a shared machine hits every command alike. For each command it
// prints the median wall time, the median CPU time (user+sys, from the
// child's rusage) and the peak resident set size, each with its min–max, and
// for every command after the first the ratio to the first, computed run by
// run (wall_i(cmd) / wall_i(first)) and then summarised the same way.
//
//	abrun [-runs 11] [-warmup 1] [-label L] -- CMD1 ARGS ::: CMD2 ARGS ::: ...
//
// Output is one line per command, tab-separated, with a header:
//
//	label cmd wall_ms cpu_ms rss_mb ratio cpu_ratio
//
// A command's output is discarded; a command that exits non-zero is reported
// on stderr and its runs still count (skillet list exits 1 on findings).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

type sample struct{ wall, cpu, rss float64 }

// Bounds of -runs and -warmup.
const (
	maxRuns   = 1000
	maxWarmup = 100
)

// checkFlags refuses -runs outside 1..maxRuns and -warmup outside
// 0..maxWarmup.
func checkFlags(runs, warmup int) error {
	if runs < 1 || runs > maxRuns {
		return fmt.Errorf("-runs %d: give 1 to %d", runs, maxRuns)
	}
	if warmup < 0 || warmup > maxWarmup {
		return fmt.Errorf("-warmup %d: give 0 to %d", warmup, maxWarmup)
	}
	return nil
}

func main() {
	runs := flag.Int("runs", 11, "runs per command")
	warmup := flag.Int("warmup", 1, "untimed runs per command first")
	label := flag.String("label", "", "first column of every line")
	header := flag.Bool("header", true, "print the header line")
	flag.Parse()
	if err := checkFlags(*runs, *warmup); err != nil {
		fmt.Fprintln(os.Stderr, "abrun:", err)
		os.Exit(2)
	}
	var cmds [][]string
	cur := []string{}
	for _, a := range flag.Args() {
		if a == ":::" {
			cmds = append(cmds, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, a)
	}
	cmds = append(cmds, cur)
	for _, c := range cmds {
		if len(c) == 0 {
			fmt.Fprintln(os.Stderr, "usage: abrun [-runs N] -- CMD ARGS ::: CMD ARGS ...")
			os.Exit(2)
		}
	}
	for range *warmup {
		for _, c := range cmds {
			run(c)
		}
	}
	res := make([][]sample, len(cmds))
	for range *runs {
		for i, c := range cmds {
			res[i] = append(res[i], run(c))
		}
	}
	if *header {
		fmt.Println("label\tcmd\twall_ms\tcpu_ms\trss_mb\tratio\tcpu_ratio")
	}
	for i, c := range cmds {
		walls, cpus, rsss := col(res[i], func(s sample) float64 { return s.wall }),
			col(res[i], func(s sample) float64 { return s.cpu }), col(res[i], func(s sample) float64 { return s.rss })
		ratio, cpuRatio := "-", "-"
		if i > 0 {
			var rw, rc []float64
			for k := range res[i] {
				rw = append(rw, res[i][k].wall/res[0][k].wall)
				rc = append(rc, res[i][k].cpu/res[0][k].cpu)
			}
			ratio, cpuRatio = summary(rw, "%.2f"), summary(rc, "%.2f")
		}
		fmt.Printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", *label, name(c), summary(walls, "%.1f"), summary(cpus, "%.1f"),
			summary(rsss, "%.1f"), ratio, cpuRatio)
	}
}

func name(c []string) string {
	parts := make([]string, 0, len(c))
	for _, a := range c {
		if i := strings.LastIndexByte(a, '/'); i >= 0 && i < len(a)-1 && strings.HasPrefix(a, "/") {
			a = a[i+1:]
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

func col(s []sample, f func(sample) float64) []float64 {
	out := make([]float64, len(s))
	for i := range s {
		out[i] = f(s[i])
	}
	return out
}

// summary is "median (min–max)".
func summary(v []float64, f string) string {
	s := slices.Clone(v)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return fmt.Sprintf(f+" ("+f+"–"+f+")", med, s[0], s[len(s)-1])
}

func run(c []string) sample {
	cmd := exec.Command(c[0], c[1:]...)
	cmd.Stdout, cmd.Stderr = nil, nil
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			fmt.Fprintln(os.Stderr, "abrun:", err)
			os.Exit(1)
		}
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	s := sample{wall: float64(wall.Microseconds()) / 1000}
	if ru != nil {
		s.cpu = float64(time.Duration(ru.Utime.Nano()+ru.Stime.Nano()).Microseconds()) / 1000
		s.rss = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return s
}
