package llm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
)

const urlSecret = "SECRET-in-the-url-42"

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.example.com/v1":                                      "https://api.example.com/v1",
		"https://h/v1?api_key=" + urlSecret:                               "https://h/v1?api_key=[redacted]",
		"https://h/v1?api-version=2024-06-01&api-key=" + urlSecret:        "https://h/v1?api-version=2024-06-01&api-key=[redacted]",
		"https://h/v1?key=" + urlSecret + "#x":                            "https://h/v1?key=[redacted]#x",
		"https://h/v1?access_token=" + urlSecret:                          "https://h/v1?access_token=[redacted]",
		"https://h/v1?X-Amz-Signature=" + urlSecret + "&sig=" + urlSecret: "https://h/v1?X-Amz-Signature=[redacted]&sig=[redacted]",
		"https://h/v1?token=" + urlSecret + "&password=" + urlSecret:      "https://h/v1?token=[redacted]&password=[redacted]",
		"https://h/v1?client_secret=" + urlSecret + "&model=m":            "https://h/v1?client_secret=[redacted]&model=m",
		"https://alice:" + urlSecret + "@h/v1":                            "https://alice:[redacted]@h/v1",
		"https://alice@h/v1?page=2":                                       "https://alice@h/v1?page=2",
		"https://ghp_abc123@github.com/x.git":                             "https://[redacted]@github.com/x.git",
		"git clone https://" + urlSecret + "@h/r":                         "git clone https://[redacted]@h/r",
		// In an error that quotes the URL go-openai made of it.
		`Post "http://127.0.0.1:1/v1?api_key=` + urlSecret + `/chat/completions": dial tcp: refused`: `Post "http://127.0.0.1:1/v1?api_key=[redacted]": dial tcp: refused`,
		"": "",
	} {
		if got := llm.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// TestCacheFileHoldsNoURLKey checks that a reply cached from an endpoint
// whose URL holds a key is stored without it.
func TestCacheFileHoldsNoURLKey(t *testing.T) {
	dir := t.TempDir()
	cache, err := llm.NewCache(dir, llm.CacheReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{Model: "m", Messages: []llm.Message{{Role: "user", Content: "hi"}}}
	key := llm.CacheKey(req)
	if err := cache.Put(key, req, "https://h/v1?api_key="+urlSecret, &llm.Reply{Content: "ok"}); err != nil {
		t.Fatal(err)
	}
	err = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if strings.Contains(string(b), urlSecret) {
			t.Errorf("cache file %s holds the key", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCheckKeyEnv(t *testing.T) {
	for _, ok := range []string{
		"OPENAI_API_KEY", "HF_TOKEN", "ANTHROPIC_API_KEY", "GROQ_API_KEY", "TOGETHER_API_KEY",
		"MISTRAL_API_KEY", "DEEPSEEK_API_KEY", "OPENROUTER_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
		"AZURE_OPENAI_API_KEY", "HUGGING_FACE_HUB_TOKEN", "XAI_API_KEY", "GRUE_LAB_SERVER_API_KEY",
	} {
		if err := llm.CheckKeyEnv(ok); err != nil {
			t.Errorf("CheckKeyEnv(%s) = %v, want it allowed", ok, err)
		}
	}
	for _, bad := range []string{
		"GH_PAT", "GITHUB_TOKEN", "GITLAB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"SSH_AUTH_SOCK", "GPG_PASSPHRASE", "DATABASE_URL", "PGPASSWORD", "MYSQL_PWD", "NPM_TOKEN",
		"STRIPE_API_KEY", "SLACK_TOKEN", "AZURE_STORAGE_KEY", "GRUE_SERVE_TOKEN", "HOME", "OPENAI",
		"openai_api_key", "OPENAI_API_KEY;rm", "",
	} {
		if err := llm.CheckKeyEnv(bad); err == nil {
			t.Errorf("CheckKeyEnv(%q) allowed it", bad)
		}
	}
	if err := llm.CheckKeyEnv("GH_PAT"); err == nil || !strings.Contains(err.Error(), "GH_PAT") || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("error %v: want the name and the names allowed", err)
	}
}

func TestConfigFromEnvNamesKeyVariable(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("HF_TOKEN", "hf-"+urlSecret)
	if c := llm.ConfigFromEnv(); c.KeyEnv != "HF_TOKEN" || !strings.Contains(c.String(), "from HF_TOKEN") {
		t.Errorf("with HF_TOKEN: KeyEnv %q, String %s", c.KeyEnv, c)
	}
	t.Setenv("OPENAI_API_KEY", "sk-"+urlSecret)
	if c := llm.ConfigFromEnv(); c.KeyEnv != "OPENAI_API_KEY" {
		t.Errorf("with OPENAI_API_KEY: KeyEnv %q", c.KeyEnv)
	}
}
