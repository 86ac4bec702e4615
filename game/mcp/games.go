package mcp

import (
	"container/list"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
)

// resolve maps a game a client names in reset_game to what open takes:
// only the games the server was started to serve, the one it plays
// (--game), the built-in default story and the story files in the
// GRUE_GAMES folder, by name. A path is never taken from a client: it
// could name any file on the server (a secret, a device, a pipe).
func (s *Server) resolve(name string) (string, error) {
	switch {
	case name == s.cfg.game, strings.EqualFold(name, s.first.name):
		return s.cfg.game, nil
	case strings.ContainsAny(name, `/\`) || name == "." || name == "..":
		return "", fmt.Errorf("%q is a path: name a game this server offers", name)
	}
	files, _ := game.Games()
	for _, f := range files {
		base := filepath.Base(f.Path)
		if strings.EqualFold(f.Name, name) || base == name || strings.TrimSuffix(base, filepath.Ext(base)) == name {
			return f.Path, nil
		}
	}
	if strings.EqualFold(name, stories.DefaultName) {
		return stories.DefaultName, nil
	}
	return "", fmt.Errorf("unknown game %q: not a game this server offers", name)
}

// storyCache keeps the stories reset_game loaded, at most size of them,
// the least recently used forgotten first. A file is known by its
// identity (device, inode, size and modification time), not by the name
// it was reached by, so aliases of one file share one entry and an edited
// file is loaded again.
type storyCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // of *cached, most recent first
	byKey map[fileKey]*list.Element
}

type fileKey struct {
	dev, ino uint64
	size     int64
	mtime    time.Time
	builtin  string
	path     string // where the system gives no inode
}

type cached struct {
	key fileKey
	ls  loadedStory
}

func newStoryCache(size int) *storyCache {
	return &storyCache{size: max(size, 1), order: list.New(), byKey: map[fileKey]*list.Element{}}
}

// load returns the story at target (a path, or the built-in story's name),
// from the cache when that file was loaded before.
func (c *storyCache) load(target string) (loadedStory, error) {
	key, err := identity(target)
	if err != nil {
		return loadedStory{}, err
	}
	c.mu.Lock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*cached).ls, nil
	}
	c.mu.Unlock()
	ls, err := loadStory(target)
	if err != nil {
		return loadedStory{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; !ok {
		c.byKey[key] = c.order.PushFront(&cached{key: key, ls: ls})
		for c.order.Len() > c.size {
			old := c.order.Remove(c.order.Back()).(*cached)
			delete(c.byKey, old.key)
		}
	}
	return ls, nil
}

// identity is the cache key of the story file at target.
func identity(target string) (fileKey, error) {
	fi, err := os.Stat(target)
	if err != nil {
		if strings.EqualFold(target, stories.DefaultName) {
			return fileKey{builtin: stories.DefaultName}, nil
		}
		return fileKey{}, fmt.Errorf("opening game: %w", err)
	}
	k := fileKey{size: fi.Size(), mtime: fi.ModTime()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.dev, k.ino = uint64(st.Dev), st.Ino
	} else {
		k.path = target
	}
	return k, nil
}

// len is the number of stories cached.
func (c *storyCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
