package harness

import (
	"context"
	"errors"
	"fmt"
)

// StartEpisode builds episode s of cfg exactly as [Run] plays it: the
// variant's agent (its baseline policy, or its model behind the config's
// response cache and rate limit, with the model checked once against the
// endpoint) connected to a new in-process game of s.Game from s.Seed. It
// validates cfg first. The caller plays the episode ([Episode.Run]) and
// must Close it; version is stored in its record ("" stores
// DefaultVersion). It is how a program that shows an episode as it is
// played (grue web) gets the same episode an experiment would run.
func StartEpisode(ctx context.Context, cfg *Config, s EpisodeSpec, version string) (*Episode, error) {
	if cfg == nil {
		return nil, errors.New("start episode: no config")
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("start episode: %w", err)
	}
	v, ok := cfg.Variant(s.Variant)
	if !ok {
		return nil, fmt.Errorf("start episode: the config has no variant %q", s.Variant)
	}
	cs, err := newClients(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("start episode: %w", err)
	}
	r := &runner{cfg: cfg, clients: cs, opts: RunOptions{Version: version}, revision: BuildRevision()}
	a, err := r.newAgent(v, s)
	if err != nil {
		return nil, fmt.Errorf("start episode: %w", err)
	}
	ep, err := newEpisode(ctx, a, cfg.gamePath(s.Game), s.Seed, version, nil)
	if err != nil {
		return nil, fmt.Errorf("start episode: %w", err)
	}
	ep.Variant, ep.Game, ep.LLMSeed = s.Variant, s.Game, s.LLMSeed
	ep.describe = r.describe
	return ep, nil
}
