package web

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/harness"
)

// endpointKey is how two base URLs are compared: scheme and host in
// lower case, the path without its trailing slashes.
func endpointKey(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return strings.TrimRight(raw, "/")
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String()
}

// trustedEndpoints are the endpoints a config from elsewhere may name:
// the environment's when it gives one, and Options.Endpoints.
type trustedEndpoints struct {
	env    string // endpointKey of the environment's endpoint, "" when none
	envKey string // the variable of the environment's key, "" when none
	flags  []string
	shown  []string // as the user wrote them, credentials masked
}

func newTrustedEndpoints(opts Options) trustedEndpoints {
	env := llm.ConfigFromEnv()
	t := trustedEndpoints{envKey: env.KeyEnv}
	if env.BaseURL != "" {
		t.env = endpointKey(env.BaseURL)
		t.shown = append(t.shown, llm.RedactURL(env.BaseURL))
	}
	for _, e := range opts.Endpoints {
		t.flags = append(t.flags, endpointKey(e))
		t.shown = append(t.shown, llm.RedactURL(e))
	}
	return t
}

// allows reports whether base (an endpointKey) is trusted.
func (t trustedEndpoints) allows(base string) bool {
	return (base != "" && base == t.env) || slices.Contains(t.flags, base)
}

// list names the trusted endpoints for an error message.
func (t trustedEndpoints) list() string {
	if len(t.shown) == 0 {
		return "none: the environment names no endpoint and grue web was given no --endpoint"
	}
	return strings.Join(t.shown, ", ")
}

// A config that arrives over HTTP (YAML pasted into the page, or the
// config in the manifest of a run folder being resumed, which may have
// been made anywhere) is a config from a stranger: it may send the
// server's keys, read its files and write its folders only where the
// user who started the server said. checkForeign holds it to that, and
// returns the problems it finds as FieldErrors joined, or nil:
//
//   - Endpoints: a variant's base_url must be one the server was started
//     with: the environment's (OPENAI_BASE_URL, or the endpoint that
//     OPENAI_API_KEY or HF_TOKEN imply) or one of Options.Endpoints
//     (grue web --endpoint).
//   - Keys: a variant may name a key variable (api_key_env) only for an
//     endpoint of Options.Endpoints, or the environment's own variable
//     for the environment's own endpoint: the key goes where the server
//     would send it, never where the config says.
//   - Files read (system_prompt_file, story files named by path) must be
//     inside Options.Experiments (a story also inside the uploaded games,
//     Runs/games, or $GRUE_GAMES), symbolic links followed.
//   - Output (the response cache's folder) must be inside Options.Runs.
//
// It reads no file the config names: it only resolves their paths.
func (s *Server) checkForeign(cfg *harness.Config) error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &harness.FieldError{File: cfg.File, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	t := s.endpoints
	for i, v := range cfg.Variants {
		at := func(f string) string { return fmt.Sprintf("variants[%d].%s", i, f) }
		base := t.env
		if v.BaseURL != "" {
			base = endpointKey(v.BaseURL)
			if !t.allows(base) {
				bad(at("base_url"), "%s is not an endpoint this server was started with (%s): a config pasted into the page or read from a run folder may name only those; start grue web with --endpoint %s to allow it",
					llm.RedactURL(v.BaseURL), t.list(), llm.RedactURL(v.BaseURL))
				continue
			}
		}
		if v.APIKeyEnv != "" && !slices.Contains(t.flags, base) && (base != t.env || v.APIKeyEnv != t.envKey) {
			bad(at("api_key_env"), "a config pasted into the page or read from a run folder may not choose which key goes where: %s goes only to an endpoint given with grue web --endpoint (the environment's endpoint gets the environment's key without it)", v.APIKeyEnv)
		}
		if v.SystemPromptFile != "" {
			p := harnessPath(cfg, v.SystemPromptFile)
			if !within(s.opts.Experiments, p) {
				bad(at("system_prompt_file"), "%s is outside %s: a config pasted into the page or read from a run folder may read files only there", v.SystemPromptFile, s.opts.Experiments)
			}
		}
	}
	roots := []string{s.opts.Experiments, filepath.Join(s.opts.Runs, GamesDir)}
	if d := os.Getenv(game.GamesEnv); d != "" {
		roots = append(roots, d)
	}
	for i, g := range cfg.Games {
		p, err := game.Find(storyPath(cfg, g))
		if err != nil {
			continue // a game's name, or nothing: Validate says which
		}
		if !slices.ContainsFunc(roots, func(r string) bool { return within(r, p) }) {
			bad(fmt.Sprintf("games[%d]", i), "%s is outside %s, the uploaded games and $%s: a config pasted into the page or read from a run folder may read story files only there", g, s.opts.Experiments, game.GamesEnv)
		}
	}
	if cfg.Cache.Dir != "" && !within(s.opts.Runs, harnessPath(cfg, cfg.Cache.Dir)) {
		bad("cache.dir", "%s is outside %s: a config pasted into the page or read from a run folder may write only there", cfg.Cache.Dir, s.opts.Runs)
	}
	return errors.Join(errs...)
}

// harnessPath is where harness takes path p of cfg from: the config's
// folder, unless p is absolute or the config has none.
func harnessPath(cfg *harness.Config, p string) string {
	if filepath.IsAbs(p) || cfg.Dir == "" {
		return p
	}
	return filepath.Join(cfg.Dir, p)
}

// storyPath is what harness opens for game g of cfg: a file beside the
// config when there is one, else g itself (a name, or a path from the
// working directory).
func storyPath(cfg *harness.Config, g string) string {
	if cfg.Dir == "" || filepath.IsAbs(g) {
		return g
	}
	p := filepath.Join(cfg.Dir, g)
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		return p
	}
	return g
}

// within reports whether path, as the file system resolves it, is root
// or inside it. A path that cannot be resolved (a link that leads
// nowhere, a loop) is not within anything.
func within(root, path string) bool {
	r, err1 := realPath(root)
	p, err2 := realPath(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(r, p)
	return err == nil && filepath.IsLocal(rel)
}

// realPath is where path leads: absolute, every symbolic link on the way
// followed and every ".." taken after the links before it (as the kernel
// does), with the part that does not exist yet (a folder to be made)
// joined on as written.
func realPath(path string) (string, error) {
	cur := string(filepath.Separator)
	if !filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		if cur, err = filepath.EvalSymlinks(wd); err != nil {
			return "", err
		}
	}
	missing := false
	for _, el := range strings.Split(filepath.ToSlash(path), "/") {
		switch el {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, el)
		if missing {
			cur = next
			continue
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, os.ErrNotExist):
			missing = true
			cur = next
		case err != nil:
			return "", err
		case fi.Mode()&os.ModeSymlink != 0:
			if cur, err = filepath.EvalSymlinks(next); err != nil {
				return "", err
			}
		default:
			cur = next
		}
	}
	return cur, nil
}
