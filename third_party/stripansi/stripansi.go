package stripansi

import (
	"regexp"
	"sync"
)

const ansi = "[\u001B\u009B][[\\]()#;?]*(?:(?:(?:[a-zA-Z\\d]*(?:;[a-zA-Z\\d]*)*)?\u0007)|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PRZcf-ntqry=><~]))"

// re is compiled on the first Strip, not at package initialisation: a
// program that links the package without calling Strip pays nothing.
var re = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(ansi) })

func Strip(str string) string {
	return re().ReplaceAllString(str, "")
}
