//go:build unix

package boundedfile

import "syscall"

// openFlags keep a named pipe from blocking the open and a terminal from
// becoming the process's controlling terminal.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
