package eval

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"

	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/boundedfile"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Tasks as files: a task is a YAML file (docs/coding.md), read by
// ParseTask and LoadTasks. The built-in tasks are such files, embedded.
//
//	id: greet
//	prompt: Write greet.txt containing the word hello.
//	tags: [files, easy]
//	setup:                 # files planted before the agent starts
//	  notes.md: "Say hello."
//	hidden:                # files written only when verifying
//	  check.sh: grep -q hello greet.txt
//	verify:                # all_of, any_of, file_exists, file_contains,
//	  all_of:              # shell_output, tests_pass
//	    - file_exists: greet.txt
//	    - file_contains: {path: greet.txt, pattern: hello}
//	    - tests_pass: sh check.sh
//	reference:             # the known solution's files
//	  greet.txt: "hello\n"

//go:embed tasks/*.yaml
var builtinFS embed.FS

// taskFile is a task file's fields.
type taskFile struct {
	ID        string            `yaml:"id"`
	Summary   string            `yaml:"summary"`
	Prompt    string            `yaml:"prompt"`
	Tags      []string          `yaml:"tags"`
	Setup     map[string]string `yaml:"setup"`
	Hidden    map[string]string `yaml:"hidden"`
	Protected *[]string         `yaml:"protected"`
	Verify    *verifySpec       `yaml:"verify"`
	Reference map[string]string `yaml:"reference"`
}

// verifySpec is one check of a task file's verify: exactly one field set.
type verifySpec struct {
	AllOf        []verifySpec  `yaml:"all_of"`
	AnyOf        []verifySpec  `yaml:"any_of"`
	FileExists   string        `yaml:"file_exists"`
	FileContains *fileContains `yaml:"file_contains"`
	ShellOutput  *shellOutput  `yaml:"shell_output"`
	TestsPass    string        `yaml:"tests_pass"`
}

type fileContains struct {
	Path    string `yaml:"path"`
	Pattern string `yaml:"pattern"`
}

type shellOutput struct {
	Command string `yaml:"command"`
	Expect  string `yaml:"expect"`
}

// taskFields lists a task file's fields, for the error about an unknown
// one.
const taskFields = "a task has id, summary, prompt, tags, setup, hidden, protected, verify and reference; a check is all_of, any_of, file_exists, file_contains {path, pattern}, shell_output {command, expect} or tests_pass"

// taskID is what a task's ID may hold: it names files.
var taskID = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ParseTask reads a task from the YAML data of file (a name for errors).
// Every problem is a *harness.FieldError with the file, line, column and
// field ("verify.all_of[1].file_contains.pattern"), joined.
func ParseTask(data []byte, file string) (Task, error) {
	var tf taskFile
	if err := harness.DecodeYAML(data, file, &tf, taskFields); err != nil {
		return Task{}, err
	}
	p := &taskProblems{file: file, data: data}
	t := tf.task(p)
	if len(p.errs) > 0 {
		return Task{}, errors.Join(p.errs...)
	}
	return t, nil
}

// LoadTask reads the task file path.
func LoadTask(path string) (Task, error) {
	data, err := boundedfile.ReadFile(path, harness.MaxConfigBytes)
	if err != nil {
		return Task{}, fmt.Errorf("task file: %w", err)
	}
	return ParseTask(data, path)
}

// LoadTasks reads every *.yaml (and *.yml) task file in dir, in the
// order of their names. Every file's problems are reported, joined; two
// files with one ID are an error.
func LoadTasks(dir string) ([]Task, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("tasks: %w", err)
	}
	var (
		tasks []Task
		errs  []error
		from  = map[string]string{}
	)
	for _, e := range entries {
		if e.IsDir() || (!strings.HasSuffix(e.Name(), ".yaml") && !strings.HasSuffix(e.Name(), ".yml")) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		t, err := LoadTask(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, ok := from[t.ID]; ok {
			errs = append(errs, &harness.FieldError{File: p, Field: "id", Msg: fmt.Sprintf("task %q is in %s already", t.ID, prev)})
			continue
		}
		from[t.ID] = p
		tasks = append(tasks, t)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("tasks: no task files (*.yaml) in %s", dir)
	}
	return tasks, nil
}

// BuiltinTasks returns grue's built-in tasks, read from their embedded
// files: hello_world, fibonacci and fix_the_bug.
func BuiltinTasks() ([]Task, error) {
	var tasks []Task
	for _, name := range []string{"hello_world", "fibonacci", "fix_the_bug"} {
		p := "tasks/" + name + ".yaml"
		data, err := fs.ReadFile(builtinFS, p)
		if err != nil {
			return nil, fmt.Errorf("built-in task %s: %w", name, err)
		}
		t, err := ParseTask(data, "eval/"+p)
		if err != nil {
			return nil, fmt.Errorf("built-in task %s: %w", name, err)
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

// WithTag returns the tasks that have one of tags (all of them when
// tags is empty).
func WithTag(tasks []Task, tags ...string) []Task {
	if len(tags) == 0 {
		return tasks
	}
	var out []Task
	for _, t := range tasks {
		if slices.ContainsFunc(tags, func(tag string) bool { return slices.Contains(t.Tags, strings.TrimSpace(tag)) }) {
			out = append(out, t)
		}
	}
	return out
}

// taskProblems collects a task file's problems, each placed in the file.
type taskProblems struct {
	file string
	data []byte
	root ast.Node
	errs []error
}

// add reports a problem with the field at path (keys and indexes).
func (p *taskProblems) add(at []any, format string, args ...any) {
	fe := &harness.FieldError{File: p.file, Field: fieldName(at), Msg: fmt.Sprintf(format, args...)}
	if p.root == nil {
		if f, err := parser.ParseBytes(p.data, 0); err == nil && len(f.Docs) > 0 {
			p.root = f.Docs[0].Body
		}
	}
	n := nodeAt(p.root, at)
	switch m := n.(type) {
	case *ast.MappingNode: // its token is the first ':'; its first key is where it starts
		if len(m.Values) > 0 && m.Values[0].Key != nil {
			n = m.Values[0].Key
		}
	case *ast.MappingValueNode:
		n = m.Key
	}
	if n != nil && n.GetToken() != nil && n.GetToken().Position != nil {
		fe.Line, fe.Column = n.GetToken().Position.Line, n.GetToken().Position.Column
	}
	p.errs = append(p.errs, fe)
}

// fieldName writes a path as "verify.all_of[1].file_exists", or
// setup["a.txt"] for a key that is a file's name.
func fieldName(at []any) string {
	var b strings.Builder
	for i, e := range at {
		switch e := e.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", e)
		case string:
			if i > 0 && !regexp.MustCompile(`^[a-z_]+$`).MatchString(e) {
				fmt.Fprintf(&b, "[%s]", strconv.Quote(e))
				continue
			}
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e)
		}
	}
	return b.String()
}

// nodeAt returns the node at path in n, or the deepest one on the way
// there; nil when n is.
func nodeAt(n ast.Node, at []any) ast.Node {
	for _, e := range at {
		if a, ok := n.(*ast.AnchorNode); ok {
			n = a.Value
		}
		var next ast.Node
		switch e := e.(type) {
		case string:
			var pairs []*ast.MappingValueNode
			switch m := n.(type) {
			case *ast.MappingNode:
				pairs = m.Values
			case *ast.MappingValueNode:
				pairs = []*ast.MappingValueNode{m}
			}
			for _, kv := range pairs {
				if kv.Key != nil && kv.Key.GetToken() != nil && kv.Key.GetToken().Value == e {
					next = kv.Value
				}
			}
		case int:
			if s, ok := n.(*ast.SequenceNode); ok && e < len(s.Values) {
				next = s.Values[e]
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
	return n
}

// task checks tf and builds the Task, reporting problems to p.
func (tf *taskFile) task(p *taskProblems) Task {
	t := Task{ID: tf.ID, Summary: strings.TrimSpace(tf.Summary), Prompt: strings.TrimSpace(tf.Prompt), Tags: tf.Tags,
		Files: tf.Setup, Hidden: tf.Hidden}
	switch {
	case tf.ID == "":
		p.add(nil, "field id: a task needs an id")
	case !taskID.MatchString(tf.ID):
		p.add([]any{"id"}, "%q is not an id (letters, digits, '.', '_' and '-', starting with a letter or digit)", tf.ID)
	}
	if t.Prompt == "" {
		p.add([]any{"prompt"}, "a task needs a prompt")
	}
	if t.Summary == "" {
		t.Summary, _, _ = strings.Cut(t.Prompt, "\n")
		if len(t.Summary) > 80 {
			t.Summary = t.Summary[:77] + "..."
		}
	}
	for i, tag := range tf.Tags {
		if !taskID.MatchString(tag) {
			p.add([]any{"tags", i}, "%q is not a tag (letters, digits, '.', '_' and '-')", tag)
		}
	}
	for field, files := range map[string]map[string]string{"setup": tf.Setup, "hidden": tf.Hidden, "reference": tf.Reference} {
		for name := range files {
			if !filepath.IsLocal(filepath.FromSlash(name)) || strings.Contains(name, `\`) {
				p.add([]any{field, name}, "%q is not a path inside the workspace", name)
			}
		}
	}
	if tf.Protected != nil {
		t.Protected = *tf.Protected
		if t.Protected == nil {
			t.Protected = []string{}
		}
		for i, pat := range t.Protected {
			if _, err := path.Match(pat, ""); err != nil || pat == "" {
				p.add([]any{"protected", i}, "%q is not a file pattern", pat)
			}
		}
	}
	if tf.Verify == nil {
		p.add([]any{"verify"}, "a task needs a verify: the check that decides whether it was done")
	} else {
		t.Verify = tf.Verify.verifier(p, []any{"verify"})
	}
	names := make([]string, 0, len(tf.Reference))
	for name := range tf.Reference {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Reference = append(t.Reference, write(name, tf.Reference[name]))
	}
	return t
}

// verifier builds the check at path at, reporting problems to p.
func (s *verifySpec) verifier(p *taskProblems, at []any) Verifier {
	set := 0
	for _, b := range []bool{s.AllOf != nil, s.AnyOf != nil, s.FileExists != "", s.FileContains != nil, s.ShellOutput != nil, s.TestsPass != ""} {
		if b {
			set++
		}
	}
	if set != 1 {
		p.add(at, "give exactly one check (all_of, any_of, file_exists, file_contains, shell_output or tests_pass), not %d", set)
		return nil
	}
	sub := func(field string, list []verifySpec) []Verifier {
		if len(list) == 0 {
			p.add(append(at, field), "%s needs at least one check", field)
		}
		var vs []Verifier
		for i := range list {
			vs = append(vs, list[i].verifier(p, append(slices.Clone(at), field, i)))
		}
		return vs
	}
	rx := func(field, expr string) {
		if _, err := regexp.Compile(expr); err != nil {
			p.add(append(slices.Clone(at), field), "/%s/ is not a regular expression: %v", expr, err)
		}
	}
	switch {
	case s.AllOf != nil:
		return AllOf(sub("all_of", s.AllOf)...)
	case s.AnyOf != nil:
		return AnyOf(sub("any_of", s.AnyOf)...)
	case s.FileExists != "":
		return FileExists(s.FileExists)
	case s.FileContains != nil:
		at = append(slices.Clone(at), "file_contains")
		if s.FileContains.Path == "" {
			p.add(at, "file_contains needs a path")
		}
		rx("pattern", s.FileContains.Pattern)
		return FileMatches(s.FileContains.Path, s.FileContains.Pattern)
	case s.ShellOutput != nil:
		at = append(slices.Clone(at), "shell_output")
		if strings.TrimSpace(s.ShellOutput.Command) == "" {
			p.add(at, "shell_output needs a command")
		}
		rx("expect", s.ShellOutput.Expect)
		return ShellMatches(s.ShellOutput.Command, s.ShellOutput.Expect)
	}
	return TestsPass(s.TestsPass, nil)
}

// write is a reference solution's write_file call.
func write(path, text string) agent.Action {
	return agent.Action{Thought: "write " + path, Tool: "write_file", Args: map[string]any{"path": path, "content": text}}
}

// TaskCheck is what CheckTask found about a task: whether its reference
// solution passes its verifier and its workspace as planted fails it.
type TaskCheck struct {
	Task string `json:"task"`
	// Reference is the verdict on the reference solution, played
	// through the agent's tools; Empty the verdict on the workspace as
	// planted, with nothing done.
	Reference Verdict `json:"reference"`
	Empty     Verdict `json:"empty"`
	// Problems says what is wrong with the task; none when it is sound.
	Problems []string `json:"problems,omitempty"`
	// Output is the end of what the verifier's commands printed (stdout
	// and stderr) when the reference failed, at most MaxCheckOutput
	// bytes: where a missing pytest or a compile error shows.
	Output string `json:"output,omitempty"`
}

// MaxCheckOutput bounds TaskCheck.Output, in bytes.
const MaxCheckOutput = 4 << 10

// failedOutput joins the output of v's failing checks (v itself, or the
// checks AllOf or AnyOf combined), keeping the last max bytes, cut at a
// line.
func failedOutput(v Verdict, max int) string {
	var parts []string
	var walk func(v Verdict)
	walk = func(v Verdict) {
		if v.Pass {
			return
		}
		if out := strings.TrimSpace(v.Output); out != "" {
			parts = append(parts, out)
		}
		for _, c := range v.Checks {
			walk(c)
		}
	}
	walk(v)
	out := strings.Join(parts, "\n")
	if len(out) <= max {
		return out
	}
	out = out[len(out)-max:]
	if i := strings.IndexByte(out, '\n'); i >= 0 {
		out = out[i+1:]
	}
	return "[...]\n" + out
}

// OK reports whether the task is sound.
func (c TaskCheck) OK() bool { return len(c.Problems) == 0 }

// CheckTask checks that t is fair: its reference solution, applied
// through the agent's tools by ReferencePolicy, passes its verifier, and
// its workspace as planted does not. opts limit the commands, as in
// RunTask. The error is for a task that could not be run at all.
func CheckTask(ctx context.Context, t Task, opts Options) (TaskCheck, error) {
	c := TaskCheck{Task: t.ID}
	if len(t.Reference) == 0 {
		c.Problems = append(c.Problems, "it has no reference solution")
	} else {
		a := NewCodingAgent(CodingDefaults())
		a.Policy = NewReferencePolicy(t)
		opts.Out, opts.Keep = "", false
		res, err := RunTask(ctx, a, t, opts)
		if err != nil {
			return c, err
		}
		c.Reference = res.Verdict
		switch {
		case res.Error != "":
			c.Problems = append(c.Problems, "its reference solution could not be applied: "+res.Error)
		case !res.Pass:
			c.Problems = append(c.Problems, "its reference solution fails: "+res.Verdict.Reason)
			c.Output = failedOutput(res.Verdict, MaxCheckOutput)
		}
	}
	dir, err := os.MkdirTemp("", "grue-check-")
	if err != nil {
		return c, fmt.Errorf("task %s: %w", t.ID, err)
	}
	defer os.RemoveAll(dir)
	if err := t.Setup(dir); err != nil {
		return c, err
	}
	c.Empty = t.Check(ctx, dir, TaskEnv(), opts.VerifyTimeout)
	if err := ctx.Err(); err != nil {
		return c, fmt.Errorf("task %s: %w", t.ID, err)
	}
	if c.Empty.Pass {
		c.Problems = append(c.Problems, "its workspace passes with nothing done: "+c.Empty.Reason)
	}
	return c, nil
}
