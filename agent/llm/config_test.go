package llm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
)

func TestConfigFromEnv(t *testing.T) {
	vars := []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "GRUE_MODEL", "HF_TOKEN", "GRUE_PRICES"}
	set := func(kv ...string) {
		for _, v := range vars {
			t.Setenv(v, "")
		}
		for i := 0; i < len(kv); i += 2 {
			t.Setenv(kv[i], kv[i+1])
		}
	}
	set()
	if c := llm.ConfigFromEnv(); c.Configured() || c.BaseURL != "" {
		t.Errorf("empty environment: %v", c)
	}
	set("HF_TOKEN", "hf_abc")
	if c := llm.ConfigFromEnv(); c.BaseURL != llm.HFRouterBaseURL || c.APIKey != "hf_abc" || c.Model != llm.DefaultHFModel {
		t.Errorf("HF_TOKEN alone: %v", c)
	}
	set("HF_TOKEN", "hf_abc", "OPENAI_API_KEY", "sk-1", "GRUE_MODEL", "gpt-4.1")
	if c := llm.ConfigFromEnv(); c.BaseURL != llm.OpenAIBaseURL || c.APIKey != "sk-1" || c.Model != "gpt-4.1" {
		t.Errorf("OpenAI key: %v", c)
	}
	set("OPENAI_BASE_URL", "http://localhost:8000/v1", "HF_TOKEN", "hf_abc", "GRUE_MODEL", "qwen")
	if c := llm.ConfigFromEnv(); c.BaseURL != "http://localhost:8000/v1" || c.APIKey != "" || !c.Configured() {
		t.Errorf("local endpoint: %v", c)
	}

	dir := t.TempDir()
	good := filepath.Join(dir, "prices.json")
	os.WriteFile(good, []byte(`{"qwen": {"input_per_mtok": 1, "output_per_mtok": 2}}`), 0o644)
	set("OPENAI_BASE_URL", "http://localhost:8000/v1", "GRUE_MODEL", "qwen", "GRUE_PRICES", good)
	c := llm.ConfigFromEnv()
	if p, ok := c.Prices.Lookup("qwen"); !ok || p.OutputPerMTok != 2 {
		t.Errorf("GRUE_PRICES not loaded: %v %v", p, ok)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"qwen": {"input_per_mtok": 1, "output_per_mtokk": 2}}`), 0o644)
	t.Setenv("GRUE_PRICES", bad)
	if err := llm.ConfigFromEnv().PricesErr(); err == nil || !strings.Contains(err.Error(), "GRUE_PRICES") || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("a bad GRUE_PRICES file gives %v", err)
	}
}

// TestConfigFromEnvMaxReplyBytes: GRUE_MAX_REPLY_BYTES sets the cap on a
// reply; a value that is not a positive number of bytes is reported, not
// replaced by the default.
func TestConfigFromEnvMaxReplyBytes(t *testing.T) {
	t.Setenv("GRUE_PRICES", "")
	t.Setenv("GRUE_MAX_REPLY_BYTES", "")
	if c := llm.ConfigFromEnv(); c.MaxReplyBytes != 0 || c.EnvErr() != nil {
		t.Errorf("unset: MaxReplyBytes %d, EnvErr %v", c.MaxReplyBytes, c.EnvErr())
	}
	t.Setenv("GRUE_MAX_REPLY_BYTES", "1048576")
	if c := llm.ConfigFromEnv(); c.MaxReplyBytes != 1<<20 || c.EnvErr() != nil {
		t.Errorf("1048576: MaxReplyBytes %d, EnvErr %v", c.MaxReplyBytes, c.EnvErr())
	}
	for _, v := range []string{"0", "-5", "32MiB", "lots"} {
		t.Setenv("GRUE_MAX_REPLY_BYTES", v)
		if err := llm.ConfigFromEnv().EnvErr(); err == nil || !strings.Contains(err.Error(), "GRUE_MAX_REPLY_BYTES") {
			t.Errorf("GRUE_MAX_REPLY_BYTES=%s: EnvErr %v, want an error naming it", v, err)
		}
	}
}
