package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// event is one Server-Sent Event: its id (the step's number, 0 for the
// end), its type and its JSON data.
type event struct {
	id   int
	kind string
	data []byte
}

// eventLog is the events of one live episode, kept whole so that a
// subscriber who comes late gets every past event first. Appending never
// waits for subscribers: each one reads the log at its own pace, woken by
// the closing of the changed channel, which is replaced on every append.
type eventLog struct {
	mu      sync.Mutex
	events  []event
	closed  bool
	changed chan struct{}
}

func newEventLog() *eventLog { return &eventLog{changed: make(chan struct{})} }

// add appends an event and wakes the subscribers.
func (l *eventLog) add(e event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.events = append(l.events, e)
	close(l.changed)
	l.changed = make(chan struct{})
}

// close appends the last event: no more come after it.
func (l *eventLog) close(e event) {
	l.add(e)
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

// since returns the events from index i on, whether the log is closed,
// and a channel closed at the next append.
func (l *eventLog) since(i int) ([]event, bool, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.events[min(i, len(l.events)):], l.closed, l.changed
}

// keepAlive is how often an idle stream gets a comment, so that proxies
// and browsers keep it open.
const keepAlive = 15 * time.Second

// serve streams the log to w as text/event-stream: the past events, then
// each new one as it is added, until the log closes or the client goes.
// A client reconnecting with Last-Event-ID gets the events after that
// step only.
func (l *eventLog) serve(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "", "this connection cannot stream events")
		return
	}
	after, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for i := 0; ; {
		evs, closed, changed := l.since(i)
		i += len(evs)
		for _, e := range evs {
			if e.id > 0 && e.id <= after {
				continue
			}
			if err := writeEvent(w, e); err != nil {
				return
			}
		}
		fl.Flush()
		if closed {
			return
		}
		select {
		case <-changed:
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-r.Context().Done():
			return
		case <-ctx.Done():
			return
		}
	}
}

// writeEvent writes one event in the text/event-stream format. The data
// is one line of JSON, so it needs no splitting.
func writeEvent(w http.ResponseWriter, e event) error {
	if e.id > 0 {
		if _, err := fmt.Fprintf(w, "id: %d\n", e.id); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.kind, e.data)
	return err
}
