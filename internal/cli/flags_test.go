package cli

import "flag"

var update = flag.Bool("update", false, "rewrite golden files and script outputs")
