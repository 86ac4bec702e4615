package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

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
	f, info, err := openFile(root, rel, os.O_RDONLY, 0)
	if err != nil {
		return pathError("read", p, err), nil
	}
	defer f.Close()
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
		text, _ = Truncate(text, orDefault(t.W.MaxRead, DefaultMaxRead))
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

// Call writes args["content"] to args["path"]. It refuses what
// [Workspace.WriteFile] refuses, and content that would make the
// workspace's files hold more than its MaxWorkspace bytes.
func (t *WriteFileTool) Call(ctx context.Context, args map[string]any) (Result, error) {
	p, _ := stringArg(args, "path")
	content, ok := stringArg(args, "content")
	if !ok {
		return Errorf(`write_file needs a content string: {"path": "...", "content": "..."}`), nil
	}
	if max := orDefault(t.W.MaxWrite, DefaultMaxWrite); len(content) > max {
		return Errorf("cannot write %s: %d bytes is more than the %d allowed", p, len(content), max), nil
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
	if max := t.W.maxWorkspace(); max > 0 {
		used, err := usage(root, rel)
		if err != nil {
			return pathError("write", p, err), nil
		}
		if used+int64(len(content)) > max {
			return Errorf("cannot write %s: the workspace's other files hold %d bytes, and %d more is over the %d allowed in all; remove files first",
				p, used, len(content), max), nil
		}
	}
	if err := writeFile(root, rel, []byte(content)); err != nil {
		return pathError("write", p, err), nil
	}
	return Result{Text: fmt.Sprintf("Wrote %d bytes to %s.", len(content), filepath.ToSlash(rel)),
		Structured: map[string]any{"path": filepath.ToSlash(rel), "size": len(content)}}, nil
}

// ReadFile reads name in the workspace, confined as read_file is, for a
// task's checks; it is not capped. Like read_file it refuses a FIFO, a
// device or socket (which could block or never end) and a file with more
// than one hard link (which may be a file outside the workspace).
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
	f, info, err := openFile(root, rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	defer f.Close()
	if info.IsDir() {
		return nil, fmt.Errorf("read %s: is a folder", name)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return data, nil
}

// Stat describes name in the workspace, confined as read_file is: a
// symbolic link is followed only while it stays inside. Only folders and
// regular files with one link are described; anything else is an error,
// as read_file would refuse it.
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
	info, err := root.Stat(rel)
	if err == nil {
		err = checkFile(info)
	}
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", name, err)
	}
	return info, nil
}

// WriteFile writes name in the workspace, confined as write_file is and
// creating folders, for a task's setup; it is not capped. It refuses to
// write into anything but a regular file with one link: a hard link's
// other name may be a file outside the workspace, and a FIFO would block.
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
	if err := writeFile(root, rel, data); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// Errors for files the workspace tools refuse.
var (
	errNotRegular = errors.New("not a regular file (a FIFO, device or socket could block or never end)")
	errLinked     = errors.New("the file has more than one hard link, and another of its names may lie outside the workspace")
)

// openFile opens rel in root with flag, without waiting for a FIFO's
// other end, and refuses anything but a folder or a regular file with one
// link. The check is made on the open file, so that nothing can be
// swapped in between.
func openFile(root *os.Root, rel string, flag int, perm os.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(rel, flag|syscall.O_NONBLOCK, perm)
	if errors.Is(err, syscall.ENXIO) {
		// Opening a FIFO to write with no reader.
		return nil, nil, errNotRegular
	}
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil {
		err = checkFile(info)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// checkFile refuses what is neither a folder nor a regular file with
// one link.
func checkFile(info fs.FileInfo) error {
	if info.IsDir() {
		return nil
	}
	if !info.Mode().IsRegular() {
		return errNotRegular
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return errLinked
	}
	return nil
}

// writeFile replaces rel's content with data, creating it and its
// folders as needed. An existing file is opened without truncating and
// checked before a byte is changed.
func writeFile(root *os.Root, rel string, data []byte) error {
	if dir := filepath.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, info, err := openFile(root, rel, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if info.IsDir() {
		f.Close()
		return errors.New("is a folder")
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// usage returns the bytes the workspace's regular files hold, less the
// file rel (which a write replaces).
func usage(root *os.Root, rel string) (int64, error) {
	skip := filepath.Clean(rel)
	var total int64
	err := fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || filepath.FromSlash(p) == skip {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // gone since the folder was read
		}
		total += info.Size()
		return nil
	})
	return total, err
}
