//go:build !unix

package boundedfile

// openFlags are none where there are no named pipes to block on.
const openFlags = 0
