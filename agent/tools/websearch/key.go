package websearch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// searchKeyProviders are the first words of the environment variables
// that hold the keys of web-search services: a variable named
// <PROVIDER>_API_KEY, <PROVIDER>_KEY, <PROVIDER>_SEARCH_API_KEY or
// <PROVIDER>_SEARCH_KEY with one of these first may be named by a config
// (checkSearchKeyEnv).
var searchKeyProviders = []string{
	"BING", "BRAVE", "DUCKDUCKGO", "EXA", "GOOGLE", "JINA", "KAGI", "LINKUP",
	"MOJEEK", "PERPLEXITY", "SEARCHAPI", "SEARX", "SEARXNG", "SERPAPI", "SERPER",
	"SERPSTACK", "TAVILY", "VALUESERP", "YOU", "ZENSERP",
}

// searchKeySuffixes end the name of a search key variable.
var searchKeySuffixes = []string{"_API_KEY", "_KEY", "_SEARCH_API_KEY", "_SEARCH_KEY", "_SUBSCRIPTION_KEY", "_CX"}

// ownSearchKeyEnv is the name of a key variable for a search endpoint of
// one's own: GRUE_<NAME>_API_KEY.
var ownSearchKeyEnv = lazyregexp.New(`^GRUE_[A-Z0-9_]+_(API_)?KEY$`)

// searchEnvName is what an environment variable's name may be.
var searchEnvName = lazyregexp.New(`^[A-Z][A-Z0-9_]*$`)

// checkSearchKeyEnv reports whether name may be named as the environment
// variable holding a web-search endpoint's key (a config's api_key_env).
// The key is sent to the URL the config names, so a config that could
// name any variable could send GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, a
// model provider's key or a database password to a server of its
// author's choice: only the key variables of search services and
// GRUE_<NAME>_API_KEY are taken.
func checkSearchKeyEnv(name string) error {
	if !searchEnvName.MatchString(name) {
		return fmt.Errorf("web search: api_key_env %q is not an environment variable's name (capital letters, digits and '_')", name)
	}
	if ownSearchKeyEnv.MatchString(name) {
		return nil
	}
	first, _, _ := strings.Cut(name, "_")
	if slices.Contains(searchKeyProviders, first) {
		for _, s := range searchKeySuffixes {
			if strings.HasSuffix(name, s) && len(name) > len(first)+len(s)-1 {
				return nil
			}
		}
	}
	return fmt.Errorf("web search: api_key_env %s is not the key variable of a search service, and a config may only send such a key: "+
		"name one like TAVILY_API_KEY, BRAVE_API_KEY or SERPAPI_API_KEY, or put the key in GRUE_<NAME>_API_KEY for an endpoint of your own", name)
}
