package web

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/grue-lab/grue/game/stories"
)

// storyVariant is the built-in story with its last byte changed by i: a
// different story file that still loads.
func storyVariant(i int) []byte {
	_, data := stories.Default()
	b := bytes.Clone(data)
	b[len(b)-1] ^= byte(i + 1)
	return b
}

// upload sends story as POST /api/games?name=name and returns the status
// and body.
func (s *testServer) upload(name string, story []byte) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest("POST", s.ts.URL+"/api/games?name="+name, bytes.NewReader(story))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	res, err := s.ts.Client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	var out bytes.Buffer
	_, _ = out.ReadFrom(res.Body)
	return res.StatusCode, out.String()
}

// The attack of issue 35, item 5: different stories uploaded at once
// under one name all got 201, each replacing the one before. Exactly one
// is kept; the others get 409, and the file is the one that got 201.
func TestUploadRace(t *testing.T) {
	s := newTestServer(t, Options{})
	const n = 12
	codes := make([]int, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			codes[i], _ = s.upload("same.z5", storyVariant(i))
		}()
	}
	close(start)
	wg.Wait()
	won := -1
	for i, c := range codes {
		switch c {
		case http.StatusCreated:
			if won >= 0 {
				t.Errorf("uploads %d and %d both got 201: one replaced the other", won, i)
			}
			won = i
		case http.StatusConflict:
		default:
			t.Errorf("upload %d: status %d, want 201 or 409", i, c)
		}
	}
	if won < 0 {
		t.Fatalf("no upload got 201: %v", codes)
	}
	kept, err := os.ReadFile(filepath.Join(s.srv.opts.Runs, GamesDir, "same.z5"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(kept, storyVariant(won)) {
		t.Errorf("the file kept is not the story that got 201 (upload %d)", won)
	}
	ents, _ := os.ReadDir(filepath.Join(s.srv.opts.Runs, GamesDir))
	if len(ents) != 1 {
		t.Errorf("%d files under games/, want the one story (no temporary files left): %v", len(ents), ents)
	}
}

// An upload never replaces a story already kept: a different one under
// its name is 409, and the same one again changes nothing (200).
func TestUploadNeverReplaces(t *testing.T) {
	s := newTestServer(t, Options{})
	if code, out := s.upload("mine.z5", storyVariant(0)); code != http.StatusCreated {
		t.Fatalf("first upload: %d %s", code, out)
	}
	if code, out := s.upload("mine.z5", storyVariant(0)); code != http.StatusOK {
		t.Errorf("the same story again: %d %s, want 200", code, out)
	}
	code, out := s.upload("mine.z5", storyVariant(1))
	if code != http.StatusConflict {
		t.Errorf("another story under the name: %d %s, want 409", code, out)
	}
	kept, err := os.ReadFile(filepath.Join(s.srv.opts.Runs, GamesDir, "mine.z5"))
	if err != nil || !bytes.Equal(kept, storyVariant(0)) {
		t.Errorf("the first story was replaced (%v)", err)
	}
	// A name taken by something that is no regular file is not "the
	// same story" either.
	if err := os.Mkdir(filepath.Join(s.srv.opts.Runs, GamesDir, "dir.z5"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out := s.upload("dir.z5", storyVariant(2)); code != http.StatusConflict {
		t.Errorf("a name that is a folder: %d %s, want 409", code, out)
	}
}
