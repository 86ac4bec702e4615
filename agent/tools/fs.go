package tools

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
)

// ReadFileTool is read_file: a file's text, or a folder's entries, in
// the workspace.
type ReadFileTool struct{ W *Workspace }

// Spec describes read_file.
func (t *ReadFileTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name:        "read_file",
		Description: "Read a file in the workspace (or list a folder's entries). Paths are relative to the workspace.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"path": map[string]any{"type": "string", "description": `the file or folder, e.g. "src/main.go" or "."`},
			},
			"required": []any{"path"},
		},
	}
}

// Call reads args["path"]. A file larger than the workspace's MaxRead is
// cut, with a note saying how much was shown.
func (t *ReadFileTool) Call(ctx context.Context, args map[string]any) (Result, error) {
	p, _ := stringArg(args, "path")
	rel, err := t.W.rel(p)
	if err != nil {
		return pathError("read", p, err), nil
	}
	root, err := t.W.open()
	if err != nil {
		return Result{}, err
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return pathError("read", p, err), nil
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return pathError("read", p, err), nil
	}
	if info.IsDir() {
		entries, err := f.ReadDir(-1)
		if err != nil {
			return pathError("list", p, err), nil
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() {
				n += "/"
			}
			names = append(names, n)
		}
		sort.Strings(names)
		text := fmt.Sprintf("%s is a folder with %d entries:\n%s", filepath.ToSlash(rel), len(names), strings.Join(names, "\n"))
		text, _ = truncate(text, orDefault(t.W.MaxRead, DefaultMaxRead))
		return Result{Text: text, Structured: map[string]any{"path": filepath.ToSlash(rel), "dir": true}}, nil
	}
	max := orDefault(t.W.MaxRead, DefaultMaxRead)
	data, err := io.ReadAll(io.LimitReader(f, int64(max)))
	if err != nil {
		return pathError("read", p, err), nil
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return Result{Text: fmt.Sprintf("%s is a binary file of %d bytes.", p, info.Size()),
			Structured: map[string]any{"path": filepath.ToSlash(rel), "size": info.Size()}}, nil
	}
	text := string(data)
	if info.Size() > int64(len(data)) {
		text += fmt.Sprintf("\n[file truncated: %d of %d bytes shown]", len(data), info.Size())
	}
	return Result{Text: text, Structured: map[string]any{"path": filepath.ToSlash(rel), "size": info.Size()}}, nil
}

// WriteFileTool is write_file: it creates or replaces a file in the
// workspace, creating the folders it needs.
type WriteFileTool struct{ W *Workspace }

// Spec describes write_file.
func (t *WriteFileTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name:        "write_file",
		Description: "Create or replace a file in the workspace with the given content; missing folders are created.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"path":    map[string]any{"type": "string", "description": "the file, relative to the workspace"},
				"content": map[string]any{"type": "string", "description": "the file's whole new content"},
			},
			"required": []any{"path", "content"},
		},
	}
}

// Call writes args["content"] to args["path"].
func (t *WriteFileTool) Call(ctx context.Context, args map[string]any) (Result, error) {
	p, _ := stringArg(args, "path")
	content, ok := stringArg(args, "content")
	if !ok {
		return errorf(`write_file needs a content string: {"path": "...", "content": "..."}`), nil
	}
	if max := orDefault(t.W.MaxWrite, DefaultMaxWrite); len(content) > max {
		return errorf("cannot write %s: %d bytes is more than the %d allowed", p, len(content), max), nil
	}
	rel, err := t.W.rel(p)
	if err != nil {
		return pathError("write", p, err), nil
	}
	root, err := t.W.open()
	if err != nil {
		return Result{}, err
	}
	defer root.Close()
	if dir := filepath.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return pathError("write", p, err), nil
		}
	}
	if err := root.WriteFile(rel, []byte(content), 0o644); err != nil {
		return pathError("write", p, err), nil
	}
	return Result{Text: fmt.Sprintf("Wrote %d bytes to %s.", len(content), filepath.ToSlash(rel)),
		Structured: map[string]any{"path": filepath.ToSlash(rel), "size": len(content)}}, nil
}

// ReadFile reads name in the workspace, confined as read_file is, for a
// task's checks; it is not capped.
func (w *Workspace) ReadFile(name string) ([]byte, error) {
	rel, err := w.rel(name)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	root, err := w.open()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.ReadFile(rel)
}

// Stat describes name in the workspace, confined as read_file is: a
// symbolic link is followed only while it stays inside.
func (w *Workspace) Stat(name string) (fs.FileInfo, error) {
	rel, err := w.rel(name)
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", name, err)
	}
	root, err := w.open()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.Stat(rel)
}

// WriteFile writes name in the workspace, confined as write_file is and
// creating folders, for a task's setup; it is not capped.
func (w *Workspace) WriteFile(name string, data []byte) error {
	rel, err := w.rel(name)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	root, err := w.open()
	if err != nil {
		return err
	}
	defer root.Close()
	if dir := filepath.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return root.WriteFile(rel, data, 0o644)
}
