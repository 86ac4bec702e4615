package llm

import (
	"fmt"
	"net/url"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// azureOf returns go-openai's configuration for a classic Azure OpenAI
// endpoint, or nil for any other: one with an api-version, in
// cfg.APIVersion or in the base URL's query. A base URL that names a
// deployment (.../openai/deployments/NAME) sends every request to it, and
// the deployment is the model when cfg names none; cfg is updated so.
func azureOf(cfg *Config) (*openai.ClientConfig, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("llm: base URL %q: %w", cfg.BaseURL, err)
	}
	version := cfg.APIVersion
	if v := u.Query().Get("api-version"); v != "" && version == "" {
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
	oc := openai.DefaultAzureConfig(cfg.APIKey, strings.TrimRight(u.String(), "/"))
	oc.APIVersion = version
	if deployment != "" {
		if cfg.Model == "" {
			cfg.Model = deployment
		}
		oc.AzureModelMapperFunc = func(string) string { return deployment }
	}
	return &oc, nil
}
