package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/grue-lab/grue/agent"
)

// Task is a coding task for an agent: a prompt, the files planted in a
// fresh workspace before the agent starts (Setup), and a hidden check run
// after it has finished (Verify), which the agent never sees: hidden test
// files live in the verifier, and reach the disk only when it runs.
// Reference is a known solution, as tool calls, with which
// ReferencePolicy proves the task solvable and its verifier fair.
type Task struct {
	// ID names the task on the command line: "hello_world".
	ID string `json:"id"`
	// Summary is one line for listings.
	Summary string `json:"summary"`
	// Prompt is what the agent is asked to do.
	Prompt string `json:"prompt"`
	// Files maps a path relative to the workspace to the text Setup
	// plants there (a go.mod, a package with a bug).
	Files map[string]string `json:"files,omitempty"`
	// Tags group tasks for grue eval --tag: "go", "easy".
	Tags []string `json:"tags,omitempty"`
	// Hidden maps a path relative to the workspace to a file that is
	// written only when verifying (Check), after the agent has finished:
	// hidden tests.
	Hidden map[string]string `json:"hidden,omitempty"`
	// Protected are the patterns of the files verification takes from
	// the task, never from the agent (Check): its test files.
	// DefaultProtected when nil; an empty list protects none.
	Protected []string `json:"protected,omitempty"`
	// Verify decides whether the task was done.
	Verify Verifier `json:"-"`
	// Reference is a solution: the tool calls that solve the task
	// (write_file, run_shell), without the closing finish.
	Reference []agent.Action `json:"reference,omitempty"`
}

// Setup plants the task's Files in dir, an empty workspace.
func (t Task) Setup(dir string) error {
	if err := writeFiles(dir, t.Files, false); err != nil {
		return fmt.Errorf("task %s: setup: %w", t.ID, err)
	}
	return nil
}

// HiddenFiles returns the files verification plants, the task's Hidden
// and its verifier's, sorted.
func (t Task) HiddenFiles() []string {
	var out []string
	for p := range t.Hidden {
		out = append(out, p)
	}
	if t.Verify != nil {
		out = append(out, HiddenFiles(t.Verify)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Tasks returns grue's built-in coding tasks, in order: hello_world,
// fibonacci and fix_the_bug, all in Go and checked with the go command.
// They are task files embedded in grue (eval/tasks); BuiltinTasks reads
// them with their errors, which a test keeps away: Tasks leaves out a
// file that does not read.
func Tasks() []Task {
	tasks, _ := BuiltinTasks()
	return tasks
}

// TaskIDs returns the IDs of the built-in tasks.
func TaskIDs() []string {
	var ids []string
	for _, t := range Tasks() {
		ids = append(ids, t.ID)
	}
	return ids
}

// FindTasks returns the built-in tasks with the given IDs, in the order
// given. An ID that names no task is an error that lists the tasks there
// are.
func FindTasks(ids ...string) ([]Task, error) {
	return SelectTasks(Tasks(), ids...)
}

// SelectTasks returns the tasks of all with the given IDs, in the order
// given. An ID that names none is an error that lists the IDs of all.
func SelectTasks(all []Task, ids ...string) ([]Task, error) {
	var out []Task
	for _, id := range ids {
		i := slices.IndexFunc(all, func(t Task) bool { return t.ID == strings.TrimSpace(id) })
		if i < 0 {
			var names []string
			for _, t := range all {
				names = append(names, t.ID)
			}
			return nil, fmt.Errorf("no task %q (tasks: %s)", id, strings.Join(names, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}
