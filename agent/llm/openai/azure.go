package openai

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
	oai "github.com/sashabaranov/go-openai"
)

// azureOf returns go-openai's configuration for a classic Azure OpenAI
// endpoint, or nil for any other: one with an api-version in
// cfg.APIVersion, or in the query of a base URL that looks like Azure's
// (a path with /openai/deployments/, or a host under azure.com). Any
// other base URL keeps its query as it is (a proxy's own api-version or
// key is sent with every request). A base URL that names a
// deployment (.../openai/deployments/NAME) sends every request to it, and
// the deployment is the model when cfg names none; cfg is updated so.
func azureOf(cfg *llm.Config) (*oai.ClientConfig, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("llm: base URL %q: %w", cfg.BaseURL, err)
	}
	version := cfg.APIVersion
	if v := u.Query().Get("api-version"); v != "" && version == "" && azureLike(u) {
		version = v
	}
	if version == "" {
		return nil, nil
	}
	cfg.APIVersion = version
	deployment := ""
	if _, rest, ok := strings.Cut(u.Path, "/openai/deployments/"); ok {
		deployment, _, _ = strings.Cut(rest, "/")
		if deployment == "" {
			return nil, fmt.Errorf("llm: base URL %q names no deployment after /openai/deployments/", cfg.BaseURL)
		}
		u.Path = u.Path[:strings.Index(u.Path, "/openai/deployments/")]
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/openai")
	u.RawQuery, u.Fragment = "", ""
	oc := oai.DefaultAzureConfig(cfg.APIKey, strings.TrimRight(u.String(), "/"))
	oc.APIVersion = version
	if deployment != "" {
		if cfg.Model == "" {
			cfg.Model = deployment
		}
		oc.AzureModelMapperFunc = func(string) string { return deployment }
	}
	return &oc, nil
}

// azureLike reports whether u looks like a classic Azure OpenAI endpoint:
// its path names a deployment, or its host is one of Azure's.
func azureLike(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	return strings.Contains(u.Path, "/openai/deployments/") ||
		strings.HasSuffix(host, ".azure.com") || strings.HasSuffix(host, ".azure-api.net")
}
