package server

import (
	"crypto/rand"
	"encoding/hex"
)

// grue: newUUID replaces github.com/google/uuid's uuid.New().String() for
// task IDs, the one use in this package, so that programs serving MCP
// over stdio do not link that package, which brings database/sql/driver,
// crypto/md5, crypto/sha1 and net for what they do not use. The HTTP
// transports (package httpserver) still use it.

// newUUID returns a random (version 4, RFC 9562) UUID in its 36-character
// text form.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])         // never fails (crypto/rand, Go 1.24 and later)
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // the RFC 9562 variant
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}
