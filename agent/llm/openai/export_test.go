package openai

import (
	"context"
	"time"
)

// SleepContext is the client's default wait between tries, for the tests
// that wrap it to learn when a backoff has begun.
func SleepContext(ctx context.Context, d time.Duration) error { return sleepContext(ctx, d) }
