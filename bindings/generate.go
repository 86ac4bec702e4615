//go:build ignore

// generate.go writes the generated files of package bindings: run it with
// `go generate ./bindings`. The list of packages is internal/gen.Packages.
package main

import (
	"fmt"
	"os"

	"github.com/grue-lab/grue/bindings/internal/gen"
)

func main() {
	wd, err := os.Getwd()
	if err == nil {
		_, err = gen.Generate(wd, wd, gen.Packages)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "generate bindings:", err)
		os.Exit(1)
	}
}
