package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/harness"
)

// BenchmarkStepToEvent measures how long after a step ends its event
// reaches a subscriber over HTTP: the walkthrough on Lantern, every step
// whose end came after the stream opened (earlier ones are replays).
// Reported: the median and the largest delay, in milliseconds.
func BenchmarkStepToEvent(b *testing.B) {
	s := newBenchServer(b, Options{})
	var lat []float64
	for b.Loop() {
		var started struct{ ID string }
		s.json("POST", "/api/episodes", map[string]any{"policy": "walkthrough"}, http.StatusCreated, &started)
		res, err := http.Get(s.ts.URL + "/api/episodes/" + started.ID + "/events")
		if err != nil {
			b.Fatal(err)
		}
		opened := float64(time.Now().UnixMicro()) / 1000
		for _, e := range readEvents(res.Body) {
			var st stepEvent
			if e.Kind != "step" || json.Unmarshal(e.Data, &st) != nil || st.EndedMS == nil || *st.EndedMS < opened {
				continue
			}
			lat = append(lat, float64(e.At.UnixMicro())/1000-*st.EndedMS)
		}
		res.Body.Close()
	}
	if len(lat) > 0 {
		slices.Sort(lat)
		b.ReportMetric(lat[len(lat)/2], "ms-median")
		b.ReportMetric(lat[len(lat)-1], "ms-max")
		b.ReportMetric(float64(len(lat)), "events")
	}
}

// BenchmarkPageLoad measures what the page asks when it opens on a runs
// folder of 1,000 run directories: GET / and GET /api/experiments, the
// list asked at once after the server starts. first is a new server on
// runs no server listed before (every record read), cold a new server
// where the last one kept its summaries (SummariesFile), warm the same
// server again.
func BenchmarkPageLoad(b *testing.B) {
	runs := manyRuns(b, 1000)
	load := func(s *testServer) {
		for _, p := range []string{"/", "/api/experiments"} {
			if code, _ := s.do("GET", p, nil); code != 200 {
				b.Fatalf("GET %s: %d", p, code)
			}
		}
	}
	// The processor time is reported too: on a machine shared with other
	// work the wall time says more about the others than about grue.
	b.Run("first", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			if err := os.Remove(filepath.Join(runs, SummariesFile)); err != nil && !os.IsNotExist(err) {
				b.Fatal(err)
			}
			b.StartTimer()
			cpu -= cpuTime()
			s := newBenchServer(b, Options{Runs: runs})
			load(s)
			s.close()
			cpu += cpuTime()
		}
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	})
	b.Run("cold", func(b *testing.B) {
		s := newBenchServer(b, Options{Runs: runs})
		load(s)
		s.close()
		cpu := cpuTime()
		for b.Loop() {
			s := newBenchServer(b, Options{Runs: runs})
			load(s)
			s.close()
		}
		b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
	})
	b.Run("warm", func(b *testing.B) {
		s := newBenchServer(b, Options{Runs: runs})
		load(s)
		cpu := cpuTime()
		for b.Loop() {
			load(s)
		}
		b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
	})
}

// cpuTime is the processor time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLiveEpisodesMemory measures the heap of a server playing 10
// model episodes at once (a scripted model answering in 20ms), after
// they have played for two seconds.
func BenchmarkLiveEpisodesMemory(b *testing.B) {
	model := llmtest.NewServer().Models("m").Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: go on\nTOOL: play_action\nARGS: {\"action\": \"look\"}").After(20 * time.Millisecond)
	})
	defer model.Close()
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s := newBenchServer(b, Options{MaxEpisodes: 10})
		var ids []string
		for range 10 {
			var started struct{ ID string }
			s.json("POST", "/api/episodes", map[string]any{"base_url": model.URL(), "model": "m", "steps": 100000}, http.StatusCreated, &started)
			ids = append(ids, started.ID)
		}
		time.Sleep(2 * time.Second)
		runtime.GC()
		runtime.ReadMemStats(&after)
		var steps int
		for _, id := range ids {
			var info EpisodeInfo
			s.json("GET", "/api/episodes/"+id, nil, http.StatusOK, &info)
			steps += info.Steps
		}
		b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/(1<<20), "MiB-heap")
		b.ReportMetric(float64(steps), "steps")
		s.close()
	}
}

// newBenchServer is newTestServer for a benchmark.
func newBenchServer(b *testing.B, opts Options) *testServer {
	b.Helper()
	return newTestServer(b, opts)
}

func (s *testServer) close() {
	s.srv.Close()
	s.ts.Close()
}

// manyRuns makes a runs folder of n copies of a real run directory (one
// experiment of two variants and four episodes), as grue exp run leaves
// them.
func manyRuns(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	cfg, err := harness.ParseConfig([]byte(quickYAML("bench", 2, 10, "walkthrough", "short=walkthrough")), "bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	first := filepath.Join(dir, "bench-0000")
	if _, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: first}); err != nil {
		b.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range []string{harness.ManifestFile, harness.ResultsFile} {
		data, err := os.ReadFile(filepath.Join(first, f))
		if err != nil {
			b.Fatal(err)
		}
		files[f] = data
	}
	for i := 1; i < n; i++ {
		d := filepath.Join(dir, fmt.Sprintf("bench-%04d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for f, data := range files {
			if err := os.WriteFile(filepath.Join(d, f), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != n || !strings.HasPrefix(ents[0].Name(), "bench-") {
		b.Fatalf("%d runs made", len(ents))
	}
	return dir
}
