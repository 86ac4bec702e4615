package repl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// isIpynb reports whether path is a Jupyter notebook (.ipynb).
func isIpynb(path string) bool {
	return strings.HasSuffix(strings.ToLower(path), ".ipynb")
}

// ipynb is the part of a Jupyter notebook (nbformat 4) that grue writes
// and reads.
type ipynb struct {
	Cells         []ipynbCell    `json:"cells"`
	Metadata      map[string]any `json:"metadata"`
	NBFormat      int            `json:"nbformat"`
	NBFormatMinor int            `json:"nbformat_minor"`
}

type ipynbCell struct {
	ID             string         `json:"id,omitempty"`
	CellType       string         `json:"cell_type"`
	Metadata       map[string]any `json:"metadata"`
	Source         cellSource     `json:"source"`
	ExecutionCount *int           `json:"execution_count,omitempty"`
	Outputs        *[]any         `json:"outputs,omitempty"` // nil for a Markdown cell
}

// cellSource is a cell's source: nbformat allows one string or a list of
// lines.
type cellSource string

func (s *cellSource) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = cellSource(one)
		return nil
	}
	var lines []string
	if err := json.Unmarshal(b, &lines); err != nil {
		return fmt.Errorf("a cell's source is neither a string nor a list of strings")
	}
	*s = cellSource(strings.Join(lines, ""))
	return nil
}

// IpynbNotebook renders cells as a Jupyter notebook (nbformat 4.5) for
// grue's kernel: a Markdown cell with the title, then each cell with its
// output as a stream (and its error). The header meta goes in the
// notebook's metadata under "grue", where grue run reads it back.
func IpynbNotebook(cells []Cell, title string, meta []Meta) ([]byte, error) {
	head := map[string]any{}
	for _, m := range meta {
		head[m.Key] = m.Value
	}
	nb := ipynb{
		NBFormat: 4, NBFormatMinor: 5,
		Metadata: map[string]any{
			"kernelspec":    map[string]any{"name": "grue", "display_name": "Go (grue)", "language": "go"},
			"language_info": map[string]any{"name": "go", "file_extension": ".go", "mimetype": "text/x-go"},
			"grue":          head,
		},
	}
	nb.Cells = append(nb.Cells, ipynbCell{ID: "title", CellType: "markdown", Metadata: map[string]any{}, Source: cellSource("# grue session\n\n" + title)})
	for _, c := range cells {
		n := c.N
		cell := ipynbCell{ID: fmt.Sprintf("cell-%d", c.N), CellType: "code", Metadata: map[string]any{}, Source: cellSource(c.Input), ExecutionCount: &n, Outputs: &[]any{}}
		if c.Output != "" {
			*cell.Outputs = append(*cell.Outputs, map[string]any{"output_type": "stream", "name": "stdout", "text": c.Output})
		}
		if c.Error != "" {
			*cell.Outputs = append(*cell.Outputs, map[string]any{"output_type": "error", "ename": "error", "evalue": c.Error, "traceback": []string{c.Error}})
		}
		nb.Cells = append(nb.Cells, cell)
	}
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		return nil, fmt.Errorf("notebook: %w", err)
	}
	return append(b, '\n'), nil
}

// ParseIpynb returns the code cells of a Jupyter notebook, in order, each
// with its saved text output (its stream outputs and the text/plain of its
// results, as grue run --check compares them), and the header that grue
// keeps in its metadata ("grue"), sorted by key.
func ParseIpynb(data []byte) ([]Cell, []Meta, error) {
	var nb ipynb
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, nil, fmt.Errorf("not a Jupyter notebook: %w", err)
	}
	if nb.NBFormat != 4 {
		return nil, nil, fmt.Errorf("nbformat %d: grue reads nbformat 4", nb.NBFormat)
	}
	var cells []Cell
	for _, c := range nb.Cells {
		if c.CellType == "code" && strings.TrimSpace(string(c.Source)) != "" {
			cells = append(cells, Cell{N: len(cells) + 1, Input: string(c.Source), Output: ipynbText(c.Outputs)})
		}
	}
	var meta []Meta
	if head, ok := nb.Metadata["grue"].(map[string]any); ok {
		for k, v := range head {
			meta = append(meta, Meta{Key: k, Value: fmt.Sprint(v)})
		}
	}
	sort.Slice(meta, func(i, j int) bool { return meta[i].Key < meta[j].Key })
	return cells, meta, nil
}

// notebookCells returns the cells and the header of a notebook, Markdown
// or Jupyter's.
func notebookCells(path, text string) ([]Cell, []Meta, error) {
	if isIpynb(path) {
		return ParseIpynb([]byte(text))
	}
	cells, err := ParseNotebookCells(text)
	if err != nil {
		return nil, nil, err
	}
	meta, err := ParseNotebookMeta(text)
	return cells, meta, err
}

// ipynbText is the text a cell's saved outputs show: its streams and the
// text/plain of its results and displays, in order (errors are not
// output: a cell that failed was not saved as succeeding).
func ipynbText(outputs *[]any) string {
	if outputs == nil {
		return ""
	}
	var b strings.Builder
	for _, o := range *outputs {
		m, ok := o.(map[string]any)
		if !ok {
			continue
		}
		switch m["output_type"] {
		case "stream":
			b.WriteString(jupyterText(m["text"]))
		case "execute_result", "display_data":
			if data, ok := m["data"].(map[string]any); ok {
				t := jupyterText(data["text/plain"])
				b.WriteString(t)
				if t != "" && !strings.HasSuffix(t, "\n") {
					b.WriteString("\n")
				}
			}
		}
	}
	return b.String()
}

// jupyterText is a multiline string of nbformat: one string or a list of
// lines.
func jupyterText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var b strings.Builder
		for _, l := range t {
			if s, ok := l.(string); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}
