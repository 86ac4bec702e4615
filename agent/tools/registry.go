package tools

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// Registry holds the tools an agent may call, in the order they were
// added, and dispatches calls by name. The zero Registry is empty and
// ready to use. A Registry is not safe for concurrent changes; calls may
// run concurrently when the tools allow it.
type Registry struct {
	order     []string
	tools     map[string]Tool
	observers []func(Call)
}

// NewRegistry returns a registry holding ts. It panics on two tools with
// one name, a programming error; use Add to check.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{}
	for _, t := range ts {
		if err := r.Add(t); err != nil {
			panic(err)
		}
	}
	return r
}

// Add adds t. A name that is already taken is an error.
func (r *Registry) Add(t Tool) error {
	name := t.Spec().Name
	if name == "" {
		return fmt.Errorf("tools: a tool has no name")
	}
	if _, ok := r.tools[name]; ok {
		return fmt.Errorf("tools: two tools named %q", name)
	}
	if r.tools == nil {
		r.tools = map[string]Tool{}
	}
	r.tools[name] = t
	r.order = append(r.order, name)
	return nil
}

// Remove removes the tool name, if there is one.
func (r *Registry) Remove(name string) {
	if _, ok := r.tools[name]; !ok {
		return
	}
	delete(r.tools, name)
	for i, n := range r.order {
		if n == name {
			r.order = append(r.order[:i:i], r.order[i+1:]...)
			break
		}
	}
}

// Get returns the tool name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.tools[name]
	return t, ok
}

// Names returns the tools' names in the order they were added.
func (r *Registry) Names() []string {
	return append([]string(nil), r.order...)
}

// Specs returns the tools' specs in the order they were added.
func (r *Registry) Specs() []llm.ToolSpec {
	specs := make([]llm.ToolSpec, 0, len(r.order))
	for _, n := range r.order {
		specs = append(specs, r.tools[n].Spec())
	}
	return specs
}

// Call calls the tool name with args. An unknown name is an error that
// lists the tools there are. Observers see every call, unknown names
// included, once it has returned.
func (r *Registry) Call(ctx context.Context, name string, args map[string]any) (Result, error) {
	if len(r.observers) == 0 {
		return r.call(ctx, name, args)
	}
	start := time.Now()
	res, err := r.call(ctx, name, args)
	c := Call{
		Tool:       name,
		Args:       maps.Clone(args),
		Text:       res.Text,
		Structured: res.Structured,
		IsError:    res.IsError,
		Start:      start,
		Duration:   time.Since(start),
	}
	if err != nil {
		c.Error = err.Error()
	}
	for _, f := range r.observers {
		f(c)
	}
	return res, err
}

func (r *Registry) call(ctx context.Context, name string, args map[string]any) (Result, error) {
	t, ok := r.tools[name]
	if !ok {
		names := r.Names()
		sort.Strings(names)
		return Result{}, fmt.Errorf("no tool named %q (tools: %s)", name, strings.Join(names, ", "))
	}
	return t.Call(ctx, args)
}

// Observe makes f see every call through r, after it returns, in the
// goroutine that made it. Add observers before the registry is in use;
// Record is the usual one.
func (r *Registry) Observe(f func(Call)) {
	r.observers = append(r.observers, f)
}
