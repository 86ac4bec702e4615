// Package websearch is the agent's "web_search" tool: a [tools.Tool] that
// sends the model's query to a configured HTTP endpoint (SearXNG, or any
// service answering JSON of the same shape) and gives back the titles,
// addresses and snippets of the top results. Web search is off unless it
// is configured: there is no default endpoint.
//
// It lives apart from package tools so that the agent and its other
// tools do not link net/http (docs/performance.md, Start-up): a program
// or script that wants web search imports this package and adds [New]'s
// tool to its registry.
package websearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
)

// Defaults of a web search's limits.
const (
	DefaultTimeout    = 15 * time.Second
	DefaultMaxResults = 5
	// maxBody caps how much of a reply is read.
	maxBody = 4 << 20
	// snippetBytes caps each result's content in the text.
	snippetBytes = 500
)

// Config says where and how to search the web. Web search is off
// unless it is configured: there is no default endpoint.
//
// The endpoint is asked with GET and must answer JSON of this shape (what
// SearXNG gives with format=json; other fields are ignored, and "snippet"
// is read where "content" is missing):
//
//	{"results": [{"title": "...", "url": "https://...", "content": "..."}]}
//
// For SearXNG: URL "http://localhost:8888/search?format=json".
type Config struct {
	// URL is the endpoint. When it contains "{query}", the query
	// (URL-escaped) replaces it; otherwise the query is added as the
	// QueryParam parameter, keeping the URL's own parameters. "{key}", if
	// present, is replaced by the API key, for endpoints that take the key
	// as a parameter.
	URL string `json:"url" yaml:"url"`
	// QueryParam is the query's parameter name ("q" when empty).
	QueryParam string `json:"query_param,omitempty" yaml:"query_param,omitempty"`
	// APIKeyEnv names the environment variable that holds an API key, if
	// the endpoint needs one. The key itself is never stored in a config,
	// and never appears in results or errors.
	APIKeyEnv string `json:"api_key_env,omitempty" yaml:"api_key_env,omitempty"`
	// APIKeyHeader is the header that carries the key: "Authorization"
	// (the default) sends "Bearer KEY", any other header the bare key.
	// With "{key}" in URL, set it to "-" to send no header.
	APIKeyHeader string `json:"api_key_header,omitempty" yaml:"api_key_header,omitempty"`
	// Timeout bounds one search (DefaultTimeout when 0).
	Timeout time.Duration `json:"timeout,omitempty" yaml:"timeout,omitempty"`
	// MaxResults caps the results given to the model
	// (DefaultMaxResults when 0).
	MaxResults int `json:"max_results,omitempty" yaml:"max_results,omitempty"`
}

// Result is one search result.
type Result struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Content string `json:"content"`
}

// Tool is the "web_search" tool: it sends the model's query to
// the configured endpoint and gives back the titles, addresses and
// snippets of the top results.
type Tool struct {
	// Config is the configuration the tool was made with.
	Config Config
	// HTTPClient sends the requests (http.DefaultClient's transport with
	// Config.Timeout when nil).
	HTTPClient *http.Client

	key string
}

// New checks cfg and returns the tool. An empty URL is an error
// (web search is not configured), and so is an APIKeyEnv naming a variable
// that is unset or empty, or one that is not a search service's key
// variable (TAVILY_API_KEY, BRAVE_API_KEY, GRUE_<NAME>_API_KEY...): the
// key goes to the URL the config names, so a config may not send any
// other secret of the environment there.
func New(cfg Config) (*Tool, error) {
	if strings.TrimSpace(cfg.URL) == "" {
		return nil, errors.New("web search is not configured: it needs an endpoint URL")
	}
	u, err := url.Parse(strings.NewReplacer("{query}", "q", "{key}", "k").Replace(cfg.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("web search: URL %q is not an http(s) address", cfg.URL)
	}
	t := &Tool{Config: cfg}
	if cfg.APIKeyEnv != "" {
		if err := checkSearchKeyEnv(cfg.APIKeyEnv); err != nil {
			return nil, err
		}
		t.key = os.Getenv(cfg.APIKeyEnv)
		if t.key == "" {
			return nil, fmt.Errorf("web search: the API key variable %s is not set", cfg.APIKeyEnv)
		}
	}
	return t, nil
}

// Spec describes the web_search tool.
func (t *Tool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name:        "web_search",
		Description: "Search the web and get the top results' titles, addresses and snippets.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"query": map[string]any{"type": "string", "description": "what to search for"},
			},
			"required": []any{"query"},
		},
	}
}

// Call searches for args["query"]. A search that fails (the endpoint is
// down, slow, or answers something other than the JSON above) is a tool
// error whose text says what happened, so that an episode goes on without
// the web; only a cancelled ctx is a Go error.
func (t *Tool) Call(ctx context.Context, args map[string]any) (tools.Result, error) {
	query, _ := args["query"].(string)
	query = strings.TrimSpace(query)
	if query == "" {
		return tools.Errorf(`web_search needs a query: {"query": "what to search for"}`), nil
	}
	results, err := t.Search(ctx, query)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, err
		}
		return tools.Errorf("%v", err), nil
	}
	if len(results) == 0 {
		return tools.Result{Text: fmt.Sprintf("No web results for %q.", query), Structured: map[string]any{"results": []any{}}}, nil
	}
	var b strings.Builder
	list := make([]any, len(results))
	for i, r := range results {
		if i > 0 {
			b.WriteString("\n\n")
		}
		snippet, _ := tools.Truncate(strings.Join(strings.Fields(r.Content), " "), snippetBytes)
		fmt.Fprintf(&b, "[%d] %s\n%s\n%s", i+1, r.Title, r.URL, snippet)
		list[i] = map[string]any{"title": r.Title, "url": r.URL, "content": r.Content}
	}
	return tools.Result{Text: b.String(), Structured: map[string]any{"results": list}}, nil
}

// Search asks the endpoint for query and returns at most MaxResults
// results. Errors say what failed and never contain the API key.
func (t *Tool) Search(ctx context.Context, query string) ([]Result, error) {
	results, err := t.search(ctx, query)
	if err != nil {
		return nil, t.redact(err)
	}
	if t.key != "" {
		for i := range results {
			r := &results[i]
			r.Title, r.URL, r.Content = t.scrub(r.Title), t.scrub(r.URL), t.scrub(r.Content)
		}
	}
	return results, nil
}

func (t *Tool) search(ctx context.Context, query string) ([]Result, error) {
	timeout := t.Config.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.requestURL(query), nil)
	if err != nil {
		return nil, fmt.Errorf("web search: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if header := t.Config.APIKeyHeader; t.key != "" && header != "-" {
		if header == "" || strings.EqualFold(header, "Authorization") {
			req.Header.Set("Authorization", "Bearer "+t.key)
		} else {
			req.Header.Set(header, t.key)
		}
	}
	client := t.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("web search: no answer from %s within %v", t.host(), timeout)
		}
		return nil, fmt.Errorf("web search: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("web search: reading the answer from %s: %w", t.host(), err)
	}
	if resp.StatusCode/100 != 2 {
		excerpt, _ := tools.Truncate(strings.TrimSpace(string(body)), 200)
		return nil, fmt.Errorf("web search: %s answered %s: %s", t.host(), resp.Status, excerpt)
	}
	var wire struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
			Snippet string `json:"snippet"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &wire); err != nil {
		return nil, fmt.Errorf(`web search: %s answered something other than {"results": [...]}: %v`, t.host(), err)
	}
	max := t.Config.MaxResults
	if max <= 0 {
		max = DefaultMaxResults
	}
	var out []Result
	for _, r := range wire.Results {
		if len(out) == max {
			break
		}
		content := r.Content
		if content == "" {
			content = r.Snippet
		}
		out = append(out, Result{Title: strings.TrimSpace(r.Title), URL: r.URL, Content: strings.TrimSpace(content)})
	}
	return out, nil
}

// requestURL is the endpoint's address for query.
func (t *Tool) requestURL(query string) string {
	raw := strings.ReplaceAll(t.Config.URL, "{key}", url.QueryEscape(t.key))
	if strings.Contains(raw, "{query}") {
		return strings.ReplaceAll(raw, "{query}", url.QueryEscape(query))
	}
	u, err := url.Parse(raw)
	if err != nil { // checked by New
		return raw
	}
	param := t.Config.QueryParam
	if param == "" {
		param = "q"
	}
	q := u.Query()
	q.Set(param, query)
	u.RawQuery = q.Encode()
	return u.String()
}

// host names the endpoint in errors: scheme and host, no path or query.
func (t *Tool) host() string {
	u, err := url.Parse(strings.NewReplacer("{query}", "", "{key}", "").Replace(t.Config.URL))
	if err != nil {
		return "the search endpoint"
	}
	return u.Scheme + "://" + u.Host
}

// scrub removes the API key from s.
func (t *Tool) scrub(s string) string {
	if t.key == "" {
		return s
	}
	return strings.ReplaceAll(s, t.key, "[redacted]")
}

// redact removes the API key from err's text, wherever an endpoint or a
// library may have echoed it.
func (t *Tool) redact(err error) error {
	if t.key == "" || !strings.Contains(err.Error(), t.key) {
		return err
	}
	return errors.New(t.scrub(err.Error()))
}

var _ tools.Tool = (*Tool)(nil)
