package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent"
)

// The built-in tasks are fair: as planted, each fails its verifier with a
// reason that names what is missing, and its reference solution, played
// through the agent's tools, passes.
func TestTasksFailAsPlantedAndPassSolved(t *testing.T) {
	if _, err := FindGo(); err != nil {
		t.Fatal(err)
	}
	unsolved := map[string]string{
		"hello_world": "hello.go does not exist",
		"fibonacci":   "undefined: Fib",
		"fix_the_bug": "Mean([1 2]) = 1, want 1.5",
	}
	for _, task := range Tasks() {
		t.Run(task.ID, func(t *testing.T) {
			t.Parallel()
			w := workspace(t, nil)
			if err := task.Setup(w.Dir); err != nil {
				t.Fatal(err)
			}
			for _, h := range task.HiddenFiles() {
				if _, ok := task.Files[h]; ok {
					t.Errorf("hidden file %s is planted by Setup", h)
				}
			}
			v := task.Check(context.Background(), w.Dir, TaskEnv(), 0)
			if v.Pass {
				t.Fatalf("the task as planted passes: %s", v.Reason)
			}
			if want := unsolved[task.ID]; !strings.Contains(v.Reason, want) {
				t.Errorf("as planted: reason %q does not say %q", v.Reason, want)
			}

			a := NewCodingAgent(CodingDefaults())
			a.Policy = NewReferencePolicy(task)
			res, err := RunTask(context.Background(), a, task, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Pass {
				t.Fatalf("the reference solution fails: %s\n%s", res.Verdict.Reason, res.Verdict.Output)
			}
			if !res.Finished || res.StoppedBy != agent.StopDone {
				t.Errorf("finished %v, stopped by %s: want the finish tool to end the episode", res.Finished, res.StoppedBy)
			}
			if res.Steps != len(task.Reference)+1 || len(res.ToolCalls) != res.Steps {
				t.Errorf("%d steps, %d tool calls; want %d of each", res.Steps, len(res.ToolCalls), len(task.Reference)+1)
			}
			for _, c := range res.ToolCalls {
				if c.IsError || c.Error != "" {
					t.Errorf("reference call %s failed: %s%s", c.Tool, c.Text, c.Error)
				}
				if c.Tool == "run_shell" && !strings.HasSuffix(strings.TrimSpace(c.Text), "[exit status 0]") {
					t.Errorf("reference run_shell %v: %s", c.Args, c.Text)
				}
			}
		})
	}
}

func TestFindTasks(t *testing.T) {
	got, err := FindTasks("fix_the_bug", "hello_world")
	if err != nil || len(got) != 2 || got[0].ID != "fix_the_bug" || got[1].ID != "hello_world" {
		t.Fatalf("FindTasks = %v, %v", got, err)
	}
	_, err = FindTasks("hello_world", "nope")
	if err == nil || !strings.Contains(err.Error(), `no task "nope" (tasks: hello_world, fibonacci, fix_the_bug)`) {
		t.Errorf("error = %v, want one naming the task and listing the tasks", err)
	}
}

func TestTaskSetup(t *testing.T) {
	task, _ := FindTasks("fix_the_bug")
	dir := t.TempDir()
	if err := task[0].Setup(dir); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"go.mod", "stats.go", "stats_test.go"}) {
		t.Errorf("planted %v", names)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "stats.go"))
	if string(b) != task[0].Files["stats.go"] || !strings.Contains(string(b), "float64(Sum(xs) / len(xs))") {
		t.Error("stats.go is not the planted text")
	}
}
