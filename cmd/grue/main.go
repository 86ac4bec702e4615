// Command grue is grue's command line, every command in one program: the
// notebook REPL (with no command, on the built-in story Lantern) and grue
// run, play, games, serve, agent, web, exp, eval, code and version.
//
// See the README and docs/design.md at the root of the repository, and
// `grue help`.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
