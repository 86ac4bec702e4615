package tools

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/grue-lab/grue/agent/llm"
)

// DefaultNotesMaxBytes is the notes' size cap when Notes.MaxBytes is 0.
const DefaultNotesMaxBytes = 4096

// Notes is a scratchpad the model keeps across steps: numbered notes it
// adds, lists, removes one at a time or clears. Each Notes holds its own
// notes (one per agent); it is safe for concurrent use. The notes' total
// size is capped: adding past the cap is a tool error that tells the model
// to remove or clear some, so nothing is dropped behind its back.
type Notes struct {
	// MaxBytes caps the total size of the notes' text
	// (DefaultNotesMaxBytes when 0).
	MaxBytes int

	mu    sync.Mutex
	notes []string
}

// NewNotes returns an empty scratchpad with the default cap.
func NewNotes() *Notes { return &Notes{} }

// Spec describes the notes tool.
func (n *Notes) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name:        "notes",
		Description: "Your scratchpad, kept between steps: add a note, list them, remove one by number, or clear all.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"action": map[string]any{
					"type":        "string",
					"enum":        []any{"add", "list", "remove", "clear"},
					"description": "what to do",
				},
				"text": map[string]any{
					"type":        "string",
					"description": "the note to add (add only)",
				},
				"number": map[string]any{
					"type":        "integer",
					"description": "the note to remove, as list numbers them (remove only)",
				},
			},
			"required": []any{"action"},
		},
	}
}

// Call does what args["action"] says. Every answer but a refusal ends
// with the notes as they now are, so the model sees the effect.
func (n *Notes) Call(ctx context.Context, args map[string]any) (Result, error) {
	action, _ := stringArg(args, "action")
	action = strings.ToLower(strings.TrimSpace(action))
	n.mu.Lock()
	defer n.mu.Unlock()
	switch action {
	case "add", "write":
		text, _ := stringArg(args, "text")
		text = strings.TrimSpace(text)
		if text == "" {
			return Errorf(`notes add needs a text: {"action": "add", "text": "..."}`), nil
		}
		if used, max := n.size(), n.max(); used+len(text) > max {
			return Errorf("notes are full: %d of %d bytes used, this note is %d; remove or clear some first", used, max, len(text)), nil
		}
		n.notes = append(n.notes, text)
		return n.result(fmt.Sprintf("Added note %d.", len(n.notes))), nil
	case "list", "read", "":
		return n.result(""), nil
	case "remove", "delete":
		num, present, err := intArg(args, "number")
		if err != nil {
			return Errorf("notes remove: %v", err), nil
		}
		if !present || num < 1 || num > len(n.notes) {
			return Errorf("notes remove needs a number from 1 to %d (see list)", len(n.notes)), nil
		}
		n.notes = append(n.notes[:num-1], n.notes[num:]...)
		return n.result(fmt.Sprintf("Removed note %d.", num)), nil
	case "clear":
		n.notes = nil
		return n.result("Cleared the notes."), nil
	}
	return Errorf("notes: unknown action %q; use add, list, remove or clear", action), nil
}

// List returns a copy of the notes, oldest first.
func (n *Notes) List() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.notes...)
}

// String renders the notes as the list action shows them.
func (n *Notes) String() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.render()
}

func (n *Notes) max() int {
	if n.MaxBytes > 0 {
		return n.MaxBytes
	}
	return DefaultNotesMaxBytes
}

func (n *Notes) size() int {
	total := 0
	for _, s := range n.notes {
		total += len(s)
	}
	return total
}

func (n *Notes) render() string {
	if len(n.notes) == 0 {
		return "No notes."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Notes (%d of %d bytes used):", n.size(), n.max())
	for i, s := range n.notes {
		fmt.Fprintf(&b, "\n%d. %s", i+1, s)
	}
	return b.String()
}

// result is what an action answers; n.mu is held.
func (n *Notes) result(head string) Result {
	text := n.render()
	if head != "" {
		text = head + "\n" + text
	}
	list := make([]any, len(n.notes))
	for i, s := range n.notes {
		list[i] = s
	}
	return Result{Text: text, Structured: map[string]any{"notes": list}}
}
