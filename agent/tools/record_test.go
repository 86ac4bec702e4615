package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// funcTool is a Tool made of a function, for tests.
type funcTool struct {
	name string
	f    func(args map[string]any) (Result, error)
}

func (t funcTool) Spec() llm.ToolSpec { return llm.ToolSpec{Name: t.name, Description: "test tool"} }
func (t funcTool) Call(ctx context.Context, args map[string]any) (Result, error) {
	return t.f(args)
}

func TestRecorder(t *testing.T) {
	ctx := context.Background()
	notes := NewNotes()
	reg := NewRegistry(notes,
		funcTool{"slow", func(map[string]any) (Result, error) {
			time.Sleep(30 * time.Millisecond)
			return Result{Text: strings.Repeat("long ", 100), Structured: map[string]any{"score": 5.0}}, nil
		}},
		funcTool{"broken", func(map[string]any) (Result, error) { return Result{}, errors.New("server died") }},
	)
	rec := Record(reg)
	rec.MaxText = 50

	args := map[string]any{"action": "add", "text": "lamp in attic"}
	before := time.Now()
	reg.Call(ctx, "notes", args)
	args["text"] = "changed after the call"
	reg.Call(ctx, "notes", map[string]any{"action": "fly"})
	reg.Call(ctx, "slow", nil)
	reg.Call(ctx, "broken", nil)
	reg.Call(ctx, "teleport", map[string]any{"to": "end"})

	calls := rec.Calls()
	if len(calls) != 5 {
		t.Fatalf("%d calls recorded, want 5: %+v", len(calls), calls)
	}
	c := calls[0]
	if c.Tool != "notes" || c.Args["text"] != "lamp in attic" || c.IsError || !strings.HasPrefix(c.Text, "Added note 1.") || c.Start.Before(before) {
		t.Errorf("call 1 = %+v", c)
	}
	if c := calls[1]; !c.IsError || !strings.Contains(c.Text, "unknown action") || c.Error != "" {
		t.Errorf("call 2 (a tool error) = %+v", c)
	}
	c = calls[2]
	if c.Duration < 30*time.Millisecond || c.Structured["score"] != 5.0 || len(c.Text) > 50+len("\n[truncated: 450 bytes]") || !strings.HasSuffix(c.Text, "[truncated: 450 bytes]") {
		t.Errorf("call 3 (slow, long) = %+v", c)
	}
	if c := calls[3]; c.Error != "server died" || c.IsError {
		t.Errorf("call 4 (a Go error) = %+v", c)
	}
	if c := calls[4]; c.Tool != "teleport" || !strings.Contains(c.Error, `no tool named "teleport"`) {
		t.Errorf("call 5 (unknown tool) = %+v", c)
	}

	// The record is plain JSON that round-trips, to the microsecond of
	// its duration (duration_ms) and the millisecond of its start.
	b, err := json.Marshal(calls)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"tool":"notes"`, `"args":{"action":"add","text":"lamp in attic"}`, `"is_error":true`, `"error":"server died"`, `"duration_ms":`, `"start":"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}
	var back []Call
	if err := json.Unmarshal(b, &back); err != nil || len(back) != 5 || back[2].Duration != calls[2].Duration.Round(time.Microsecond) ||
		!back[0].Start.Equal(calls[0].Start.Truncate(time.Millisecond)) {
		t.Errorf("round trip: %v, %+v", err, back)
	}

	if got := rec.Take(); len(got) != 5 || rec.Len() != 0 {
		t.Errorf("Take gave %d calls and left %d", len(got), rec.Len())
	}
	reg.Call(ctx, "notes", map[string]any{"action": "list"})
	if rec.Len() != 1 {
		t.Errorf("after Take and one call: %d recorded", rec.Len())
	}
}

func TestRecorderConcurrent(t *testing.T) {
	reg := NewRegistry(funcTool{"echo", func(args map[string]any) (Result, error) {
		return Result{Text: args["s"].(string)}, nil
	}})
	rec := Record(reg)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				reg.Call(context.Background(), "echo", map[string]any{"s": "x"})
			}
		}()
	}
	wg.Wait()
	if rec.Len() != 400 {
		t.Errorf("%d calls recorded, want 400", rec.Len())
	}
}

// BenchmarkRegistryCall measures dispatch with and without a recorder.
func BenchmarkRegistryCall(b *testing.B) {
	tool := funcTool{"echo", func(args map[string]any) (Result, error) { return Result{Text: "ok"}, nil }}
	args := map[string]any{"action": "look"}
	b.Run("plain", func(b *testing.B) {
		reg := NewRegistry(tool)
		for b.Loop() {
			reg.Call(context.Background(), "echo", args)
		}
	})
	b.Run("recorded", func(b *testing.B) {
		reg := NewRegistry(tool)
		rec := Record(reg)
		for b.Loop() {
			reg.Call(context.Background(), "echo", args)
			if rec.Len() > 1000 {
				rec.Take()
			}
		}
	})
}
