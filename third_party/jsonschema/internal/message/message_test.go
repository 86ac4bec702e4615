package message

import "testing"

func TestSprintf(t *testing.T) {
	if got := NewPrinter().Sprintf("minItems: got %d, want %v; %q", 1000, 2, "x"); got != `minItems: got 1000, want 2; "x"` {
		t.Errorf("Sprintf = %q", got)
	}
}
