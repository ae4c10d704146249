package fsx

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadSized holds readSized to io.ReadAll of the same reader, whatever
// the stat said: the size right, too small (the file grew), zero (/proc),
// too large (the file shrank), and cut by the limit; a read error is
// returned with what was read before it.
func TestReadSized(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("0123456789abcdef", 300) // 4,800 bytes
	boom := errors.New("boom")
	for _, tc := range []struct {
		name         string
		size, limit  int64
		short, fails bool
	}{
		{"size right", 4800, -1, false, false},
		{"size right, limit above", 4800, 4801, false, false},
		{"grew", 1000, -1, false, false},
		{"no size", 0, -1, false, false},
		{"shrank", 9000, -1, false, false},
		{"limit cuts", 4800, 100, false, false},
		{"limit is the size", 4800, 4800, false, false},
		{"limit cuts, grew", 10, 3000, false, false},
		{"short reads", 4800, -1, true, false},
		{"read fails", 4800, -1, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mk := func() io.Reader {
				var r io.Reader = strings.NewReader(text)
				if tc.limit >= 0 {
					r = io.LimitReader(r, tc.limit)
				}
				if tc.short {
					r = iotest.OneByteReader(r)
				}
				if tc.fails {
					r = io.MultiReader(io.LimitReader(r, 700), iotest.ErrReader(boom))
				}
				return r
			}
			want, wantErr := io.ReadAll(mk())
			got, err := readSized(mk(), tc.size, tc.limit)
			if !bytes.Equal(got, want) || err != wantErr {
				t.Fatalf("got %d bytes, %v; want %d bytes, %v", len(got), err, len(want), wantErr)
			}
		})
	}
}

// TestReadOpenAllocates holds ReadOpen of a skill-sized file to one
// buffer of its size (and the stat's): io.ReadAll made five and copied
// four times (BenchmarkReadOpen).
func TestReadOpenAllocates(t *testing.T) {
	file := filepath.Join(t.TempDir(), "SKILL.md")
	if err := os.WriteFile(file, bytes.Repeat([]byte("x"), 7600), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var data []byte
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if data, _, err = ReadOpen(f, "", 1<<20); err != nil {
			t.Fatal(err)
		}
	})
	if len(data) != 7600 || cap(data) > 8192 {
		t.Errorf("read %d bytes into a buffer of %d, want 7600 into at most 8192", len(data), cap(data))
	}
	if allocs > 3 {
		t.Errorf("%.0f allocations a read, want at most 3 (the buffer, the stat, the limit)", allocs)
	}
}

// BenchmarkReadOpen reads a skill-sized file (7,600 bytes, the generated
// tree's mean) whole; B/op over the file's size is what each read costs
// the collector.
//
//	go test ./internal/fsx -run '^$' -bench ReadOpen -benchmem
func BenchmarkReadOpen(b *testing.B) {
	const size = 7600
	file := filepath.Join(b.TempDir(), "SKILL.md")
	if err := os.WriteFile(file, bytes.Repeat([]byte("x"), size), 0o644); err != nil {
		b.Fatal(err)
	}
	f, err := Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			b.Fatal(err)
		}
		if _, _, err := ReadOpen(f, "", 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}
