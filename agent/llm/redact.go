package llm

import (
	"slices"
	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Redacted stands for a secret that RedactURL took out.
const Redacted = "[redacted]"

var (
	// urlQueryParam matches a query parameter in a URL: its separator
	// and name (group 1, with the '='), and its value (group 2), which
	// runs to the next parameter, fragment, space or quote.
	urlQueryParam = lazyregexp.New(`([?&;][A-Za-z0-9_.\-\[\]]+=)([^&;#\s"'<>]*)`)
	// urlPassword matches the password of a URL's userinfo
	// (scheme://user:PASSWORD@host): group 1 is what comes before it.
	urlPassword = lazyregexp.New(`([A-Za-z][A-Za-z0-9+.\-]*://[^/?#@\s:"'<>]*:)([^/?#@\s"'<>]*)@`)
	// urlUser matches a URL's userinfo without a password
	// (scheme://USER@host): group 1 is the scheme, group 2 the user.
	urlUser = lazyregexp.New(`([A-Za-z][A-Za-z0-9+.\-]*://)([^/?#@\s:"'<>]+)@`)
)

// tokenUserPrefixes begin access tokens that services take as a URL's
// user name (https://ghp_...@github.com).
var tokenUserPrefixes = []string{"sk-", "sk_", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "glpat-", "hf_", "xox", "pat", "token", "key"}

// tokenUser reports whether a URL's user name (with no password) looks
// like an access token rather than a person's name: one of the known
// token prefixes, or 20 characters or more.
func tokenUser(u string) bool {
	if len(u) >= 20 {
		return true
	}
	l := strings.ToLower(u)
	for _, p := range tokenUserPrefixes {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// secretParamSuffixes end the (normalised) names of query parameters
// that hold credentials: api_key, apiKey, access_token, x-amz-signature,
// client_secret, password...
var secretParamSuffixes = []string{"key", "token", "secret", "password", "passwd", "signature", "credential", "credentials"}

// secretParams are other names of query parameters that hold credentials.
var secretParams = []string{"sig", "pwd", "pass", "auth", "authorization", "session", "sessionid", "code", "jwt", "bearer"}

// secretParam reports whether a query parameter called name holds a
// credential.
func secretParam(name string) bool {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "", ".", "", "[", "", "]", "").Replace(name))
	if slices.Contains(secretParams, n) {
		return true
	}
	for _, s := range secretParamSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// RedactURL returns s with the credentials of every URL in it masked as
// Redacted: the values of query parameters that hold credentials (api_key,
// key, token, access_token, sig, signature, password, client_secret, and
// the like), userinfo passwords (https://user:PASSWORD@host) and user
// names that are tokens (https://ghp_TOKEN@host). s may be
// a URL or any text holding URLs, such as an error that quotes one, so
// grue passes every base URL it prints, logs or records through it, and
// every error of a model client.
//
//	RedactURL("https://h/v1?api_key=sk-1&api-version=2") == "https://h/v1?api_key=[redacted]&api-version=2"
func RedactURL(s string) string {
	if !strings.Contains(s, "=") && !strings.Contains(s, "@") {
		return s
	}
	s = urlPassword.ReplaceAllString(s, "${1}"+Redacted+"@")
	s = urlUser.ReplaceAllStringFunc(s, func(m string) string {
		sub := urlUser.FindStringSubmatch(m)
		if !tokenUser(sub[2]) {
			return m
		}
		return sub[1] + Redacted + "@"
	})
	return urlQueryParam.ReplaceAllStringFunc(s, func(m string) string {
		sub := urlQueryParam.FindStringSubmatch(m)
		if sub[2] == "" || !secretParam(strings.TrimSuffix(sub[1][1:], "=")) {
			return m
		}
		return sub[1] + Redacted
	})
}
