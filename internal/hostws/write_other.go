//go:build !unix

package hostws

import "os"

func writeFile(p string, data []byte) error { return os.WriteFile(p, data, 0o644) }

func rmdir(d string) error { return os.Remove(d) }
