package llm

import (
	"fmt"

	"slices"
	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// keyEnvProviders are the first words of the environment variables that
// hold the keys of LLM endpoints: a variable named <PROVIDER>_API_KEY,
// <PROVIDER>_API_TOKEN, <PROVIDER>_KEY or <PROVIDER>_TOKEN with one of
// these first may be named by a config (CheckKeyEnv).
var keyEnvProviders = []string{
	"AI21", "ANTHROPIC", "ANYSCALE", "BASETEN", "CEREBRAS", "CLAUDE", "COHERE",
	"DASHSCOPE", "DEEPINFRA", "DEEPSEEK", "FIREWORKS", "FRIENDLI", "GEMINI", "GLM", "GROQ",
	"HF", "HUGGINGFACE", "HUGGINGFACEHUB", "HUGGING", "HYPERBOLIC", "LEPTON",
	"LITELLM", "LLAMA", "LLM", "LMSTUDIO", "MINIMAX", "MISTRAL", "MOONSHOT", "NEBIUS", "NOVITA",
	"NVIDIA", "NIM", "OLLAMA", "OPENAI", "OPENROUTER", "PERPLEXITY", "PPLX", "QWEN", "REPLICATE",
	"SAMBANOVA", "SILICONFLOW", "TGI", "TOGETHER", "TOGETHERAI", "VLLM", "VOYAGE",
	"XAI", "YI", "ZHIPU", "ZHIPUAI",
}

// keyEnvExtra are key variables of LLM endpoints that do not follow the
// <PROVIDER>_..._KEY pattern.
var keyEnvExtra = []string{"AZURE_OPENAI_API_KEY", "AZURE_AI_API_KEY", "GOOGLE_API_KEY", "HUGGING_FACE_HUB_TOKEN"}

// ownKeyEnv is the name of a key variable for an endpoint of one's own:
// GRUE_<NAME>_API_KEY (and only that of grue's variables, whose other
// tokens, such as a server's, must not go to a model).
var ownKeyEnv = lazyregexp.New(`^GRUE_[A-Z0-9_]+_API_KEY$`)

// keyEnvSuffixes end the name of a key variable.
var keyEnvSuffixes = []string{"_API_KEY", "_API_TOKEN", "_KEY", "_TOKEN", "_ACCESS_TOKEN", "_AUTH_TOKEN"}

// envName is what an environment variable's name may be.
var envName = lazyregexp.New(`^[A-Z][A-Z0-9_]*$`)

// CheckKeyEnv reports whether name may be named as the environment
// variable holding a model endpoint's API key (a config's api_key_env):
// a variable that looks like the key of an LLM provider, such as
// OPENAI_API_KEY, HF_TOKEN, ANTHROPIC_API_KEY, GROQ_API_KEY or
// GRUE_<NAME>_API_KEY for an endpoint of one's own. The key is sent to the
// endpoint the config names, so a config that could name any variable
// could send GH_PAT, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY or a database
// password to a server of its author's choice: every other name is
// refused, with an error that says which names are taken.
func CheckKeyEnv(name string) error {
	if !envName.MatchString(name) {
		return fmt.Errorf("%q is not an environment variable's name (capital letters, digits and '_')", name)
	}
	if slices.Contains(keyEnvExtra, name) || ownKeyEnv.MatchString(name) {
		return nil
	}
	first, _, _ := strings.Cut(name, "_")
	if slices.Contains(keyEnvProviders, first) && name != first {
		for _, s := range keyEnvSuffixes {
			if strings.HasSuffix(name, s) && len(name) > len(s) {
				return nil
			}
		}
	}
	return fmt.Errorf("%s is not the API key variable of an LLM endpoint, and a config may only send such a key: "+
		"name one like OPENAI_API_KEY, HF_TOKEN or ANTHROPIC_API_KEY, or put the key in GRUE_<NAME>_API_KEY for an endpoint of your own", name)
}
