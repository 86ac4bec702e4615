package code

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/grue-lab/grue/agent/tools"
)

// streamTool prints each call of its tool as it starts, and its result
// when it comes: a line "> TOOL ARGS", then the result indented, its
// first 20 lines.
type streamTool struct {
	tools.Tool
	w io.Writer
}

func (t streamTool) Call(ctx context.Context, args map[string]any) (tools.Result, error) {
	name := t.Spec().Name
	if name != "finish" {
		fmt.Fprintf(t.w, "> %s %s\n", name, describeArgs(name, args))
	}
	r, err := t.Tool.Call(ctx, args)
	if name == "finish" {
		return r, err
	}
	text := r.Text
	if err != nil {
		text = "error: " + err.Error()
	}
	fmt.Fprintln(t.w, indent(clipLines(strings.TrimRight(text, "\n"), 20), "  "))
	return r, err
}

// describeArgs shows a call's arguments in a line: a file's path and
// size rather than its whole text.
func describeArgs(tool string, args map[string]any) string {
	if tool == "write_file" {
		p, _ := args["path"].(string)
		c, _ := args["content"].(string)
		return fmt.Sprintf("%s (%d bytes)", p, len(c))
	}
	if c, ok := args["command"].(string); ok {
		return c
	}
	if p, ok := args["path"].(string); ok {
		return p
	}
	b, _ := json.Marshal(args)
	return string(b)
}

// clipLines keeps the first n lines of s and says how many more there
// were.
func clipLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n[%d more lines]", len(lines)-n)
}

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
