package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	oai "github.com/sashabaranov/go-openai"
)

// modelsTimeout bounds CheckModel's one call.
const modelsTimeout = 15 * time.Second

// ErrNoModel is what CheckModel and New return (wrapped) when no model is
// named and none can be chosen. Their messages say to set GRUE_MODEL; a
// command adds how else it names one (grue agent's --model, a config's
// model:).
var ErrNoModel = errors.New("no model named")

// CheckModel asks cfg's endpoint once which models it serves (GET
// /models) and returns cfg with its model settled:
//
//   - no model named and exactly one served: that one (a vLLM or
//     llama.cpp server needs no GRUE_MODEL);
//   - no model named and several served: an error listing them;
//   - a model named that the endpoint does not serve: an error naming it
//     and listing what is served, before anything is played;
//   - an endpoint with no model list (an error answer, a body that is not
//     one, a classic Azure endpoint, whose list is not of deployments):
//     cfg as it is, unchecked, or an error when it names no model.
//
// A model named NAME is served when the list has NAME, NAME:latest (as
// Ollama lists its models), or, for NAME:SUFFIX (a router's provider or
// tag), the part before the colon. opts carry the call as New's do
// (WithHTTPClient).
func CheckModel(ctx context.Context, cfg llm.Config, opts ...Option) (llm.Config, error) {
	if cfg.BaseURL == "" {
		return cfg, errors.New("llm: no base URL to ask for its models")
	}
	probe := cfg
	if azure, err := azureOf(&probe); err != nil {
		return cfg, err
	} else if azure != nil {
		return probe, nil
	}
	ids, err := listModels(ctx, cfg, optionsOf(opts))
	if err != nil {
		if cfg.Model == "" {
			return cfg, fmt.Errorf("llm: %w, and %s did not list its models (%v): set GRUE_MODEL", ErrNoModel, llm.RedactURL(cfg.BaseURL), err)
		}
		return cfg, nil
	}
	switch {
	case cfg.Model == "" && len(ids) == 1:
		cfg.Model = ids[0]
	case cfg.Model == "" && len(ids) == 0:
		return cfg, fmt.Errorf("llm: %w, and %s lists none: set GRUE_MODEL", ErrNoModel, llm.RedactURL(cfg.BaseURL))
	case cfg.Model == "":
		return cfg, fmt.Errorf("llm: %w, and %s serves %d: set GRUE_MODEL to one of %s", ErrNoModel, llm.RedactURL(cfg.BaseURL), len(ids), listOf(ids))
	case len(ids) > 0 && !served(cfg.Model, ids):
		return cfg, fmt.Errorf("llm: %s does not serve model %q; it serves %s", llm.RedactURL(cfg.BaseURL), cfg.Model, listOf(ids))
	}
	return cfg, nil
}

// listModels makes the one GET /models call, with no retries.
func listModels(ctx context.Context, cfg llm.Config, o options) ([]string, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("base URL: %w", err)
	}
	// As in New: go-openai appends the path to the base URL as a
	// string, so a query the base URL has (a proxy's key) goes on each
	// request through the transport instead.
	query := u.Query()
	u.RawQuery, u.ForceQuery = "", false
	oc := oai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(u.String(), "/")
	hc := &http.Client{}
	if o.httpClient != nil {
		copied := *o.httpClient
		hc = &copied
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = &recorder{base: base, query: query, maxReply: maxReplyOf(cfg)}
	oc.HTTPClient = hc
	ctx, cancel := context.WithTimeout(ctx, modelsTimeout)
	defer cancel()
	list, err := oai.NewClientWithConfig(oc).ListModels(ctx)
	if err != nil {
		msg := serverSaid(err)
		if k := cfg.APIKey; len(k) >= 4 {
			msg = strings.ReplaceAll(msg, k, "[redacted]")
		}
		return nil, errors.New(llm.RedactURL(oneLine(msg)))
	}
	var ids []string
	for _, m := range list.Models {
		if m.ID != "" && !slices.Contains(ids, m.ID) {
			ids = append(ids, m.ID)
		}
	}
	return ids, nil
}

// served reports whether model is among ids, as CheckModel says.
func served(model string, ids []string) bool {
	base, _, tagged := strings.Cut(model, ":")
	for _, id := range ids {
		if id == model || id == model+":latest" || strings.TrimSuffix(id, ":latest") == model || (tagged && id == base) {
			return true
		}
	}
	return false
}

// listOf names ids for an error: sorted, at most 20, and how many more.
func listOf(ids []string) string {
	s := slices.Clone(ids)
	slices.Sort(s)
	more := ""
	if len(s) > 20 {
		more = fmt.Sprintf(" and %d more", len(s)-20)
		s = s[:20]
	}
	return strings.Join(s, ", ") + more
}
