package gen

// StdPackages are the standard library packages whose symbol tables
// bindings/std holds, extracted from the Go that runs `go generate
// ./bindings`. It is yaegi's list (the go:generate lines of its
// stdlib/stdlib.go and stdlib-go1.22.go at v0.16.1: `go list std`
// without internal, vendored, unsafe and syscall packages) with the
// packages Go added since, marked with the version that added them.
//
// Left out, as yaegi leaves them out: embed (a script has no files to
// embed), os/exec (yaegi's unrestricted set), plugin, runtime/cgo,
// runtime/coverage, runtime/race and time/tzdata (nothing a script can
// call). Left out by grue: iter, whose Seq and Seq2 are generic types
// that a table cannot hold; the REPL compiles package iter from source
// (repl/generics.go), which an empty table would hide, as yaegi imports
// a package's table in preference to its source. TestStdPackagesCoverGo
// fails when a new Go adds a package that is in neither list.
var StdPackages = []string{
	"archive/tar", "archive/zip",
	"bufio", "bytes", "cmp",
	"compress/bzip2", "compress/flate", "compress/gzip", "compress/lzw", "compress/zlib",
	"container/heap", "container/list", "container/ring",
	"context", "crypto", "crypto/aes", "crypto/cipher", "crypto/des", "crypto/dsa", "crypto/ecdsa", "crypto/ecdh",
	"crypto/ed25519", "crypto/elliptic", "crypto/hmac", "crypto/md5", "crypto/rand",
	"crypto/rc4", "crypto/rsa", "crypto/sha1", "crypto/sha256", "crypto/sha512",
	"crypto/subtle", "crypto/tls", "crypto/x509", "crypto/x509/pkix",
	"database/sql", "database/sql/driver",
	"debug/buildinfo", "debug/dwarf", "debug/elf", "debug/gosym", "debug/macho", "debug/pe", "debug/plan9obj",
	"encoding", "encoding/ascii85", "encoding/asn1", "encoding/base32",
	"encoding/base64", "encoding/binary", "encoding/csv", "encoding/gob",
	"encoding/hex", "encoding/json", "encoding/pem", "encoding/xml",
	"errors", "expvar", "flag", "fmt",
	"go/ast", "go/build", "go/build/constraint", "go/constant", "go/doc", "go/doc/comment", "go/format",
	"go/importer", "go/parser", "go/printer", "go/scanner", "go/token", "go/types",
	"hash", "hash/adler32", "hash/crc32", "hash/crc64", "hash/fnv", "hash/maphash",
	"html", "html/template",
	"image", "image/color", "image/color/palette",
	"image/draw", "image/gif", "image/jpeg", "image/png", "index/suffixarray",
	"io", "io/fs", "io/ioutil", "log", "log/syslog", "log/slog",
	"maps", "math", "math/big", "math/bits", "math/cmplx", "math/rand",
	"mime", "mime/multipart", "mime/quotedprintable",
	"net", "net/http", "net/http/cgi", "net/http/cookiejar", "net/http/fcgi",
	"net/http/httptest", "net/http/httptrace", "net/http/httputil", "net/http/pprof",
	"net/mail", "net/netip", "net/rpc", "net/rpc/jsonrpc", "net/smtp", "net/textproto", "net/url",
	"os", "os/signal", "os/user",
	"path", "path/filepath", "reflect", "regexp", "regexp/syntax",
	"runtime", "runtime/debug", "runtime/metrics", "runtime/pprof", "runtime/trace",
	"slices", "sort", "strconv", "strings", "sync", "sync/atomic",
	"testing", "testing/fstest", "testing/iotest", "testing/quick", "testing/slogtest",
	"text/scanner", "text/tabwriter", "text/template", "text/template/parse",
	"time", "unicode", "unicode/utf16", "unicode/utf8",
	// Go 1.22 (yaegi's stdlib-go1.22.go).
	"go/version", "math/rand/v2",
	// Go 1.23.
	"structs", "unique",
	// Go 1.24.
	"crypto/fips140", "crypto/hkdf", "crypto/mlkem", "crypto/pbkdf2", "crypto/sha3", "weak",
	// Go 1.25.
	"testing/synctest",
	// Go 1.26.
	"crypto/hpke", "crypto/mlkem/mlkemtest", "testing/cryptotest",
}

// StdLeftOut are the packages of `go list std` (without internal,
// vendored, unsafe and syscall packages) that StdPackages leaves out, for
// the reasons given there.
var StdLeftOut = []string{
	"embed", "iter", "os/exec", "plugin", "runtime/cgo", "runtime/coverage", "runtime/race", "time/tzdata",
}
