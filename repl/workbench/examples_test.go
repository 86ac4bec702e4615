package workbench

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/memory"
	"github.com/grue-lab/grue/repl"
)

// TestExampleScripts runs every script in scripts/ as grue run would, so
// that CI keeps the examples working: with a model (a local fake OpenAI
// endpoint, fakeModel), and with none, where a script either plays with a
// baseline or exits with status 2 saying that it needs a model.
func TestExampleScripts(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("..", "..", "scripts", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) == 0 {
		t.Fatal("no scripts in ../../scripts")
	}
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(fakeModel)
	for _, withModel := range []bool{true, false} {
		noModel(t)
		name := "no model"
		if withModel {
			t.Setenv("OPENAI_BASE_URL", srv.URL())
			t.Setenv("GRUE_MODEL", "fake-model")
			name = "model"
		}
		for _, path := range scripts {
			t.Run(name+"/"+filepath.Base(path), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				var out, errs strings.Builder
				err := RunFile(ctx, path, nil, Options{REPL: repl.Options{Stdout: &out, Stderr: &errs, Stdin: strings.NewReader("")}})
				if code, ok := repl.ExitStatus(err); ok && code == 2 && !withModel && strings.Contains(errs.String(), "needs a model") {
					return
				}
				if err != nil {
					t.Fatalf("grue run %s: %v\nstdout:\n%s\nstderr:\n%s", path, err, out.String(), errs.String())
				}
				if out.Len() == 0 {
					t.Errorf("grue run %s printed nothing", path)
				}
			})
		}
	}
}

// fakeModel answers as a model playing in the text protocol would: a
// command from a short list, chosen by a hash of the whole prompt and the
// seed, so that the same request always gets the same answer and requests
// that differ (in the system prompt, in what memory kept, in the seed) may
// get others. A memory
// summary request gets notes.
func fakeModel(req llmtest.Request) llmtest.Response {
	msgs := req.LLMMessages()
	if len(msgs) > 0 && strings.HasPrefix(msgs[0].Content, memory.DefaultSummaryPrompt[:40]) {
		return llmtest.Text("Locations: the meadow and what lies around it.\nScore: as the steps show.")
	}
	h := fnv.New32a()
	if req.Seed != nil {
		fmt.Fprint(h, *req.Seed)
	}
	for _, m := range msgs {
		h.Write([]byte(m.Role + m.Content))
	}
	cmds := []string{"north", "south", "east", "west", "open toolbox", "take lantern", "look", "examine toolbox"}
	c := cmds[h.Sum32()%uint32(len(cmds))]
	return llmtest.Text(fmt.Sprintf("THOUGHT: (a fake model) I will try %s.\nTOOL: play_action\nARGS: {\"action\": %q}", c, c))
}
