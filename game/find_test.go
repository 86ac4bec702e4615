package game

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	games := t.TempDir()
	touch(t, filepath.Join(games, "zork1.z3"))
	touch(t, filepath.Join(games, "praxix.z5"))
	touch(t, filepath.Join(games, "plain"))
	if err := os.Mkdir(filepath.Join(games, "folder.z5"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(games, "corpus"), 0o755); err != nil {
		t.Fatal(err)
	}
	touch(t, filepath.Join(games, "corpus", "candy.z5"))
	work := t.TempDir()
	local := filepath.Join(work, "zork1.z3")
	touch(t, local)
	t.Setenv(GamesEnv, games)

	for _, tc := range []struct{ in, want string }{
		{local, local}, // an existing path wins
		{"zork1", filepath.Join(games, "zork1.z3")},                  // name + extension
		{"zork1.z3", filepath.Join(games, "zork1.z3")},               // name with its extension
		{"praxix", filepath.Join(games, "praxix.z5")},                // any of the extensions
		{"plain", filepath.Join(games, "plain")},                     // the name as it is comes first
		{"corpus/candy", filepath.Join(games, "corpus", "candy.z5")}, // a folder in the games folder
		{filepath.Join(games, "zork1.z3"), filepath.Join(games, "zork1.z3")},
	} {
		got, err := Find(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Find(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestFindErrors(t *testing.T) {
	games := t.TempDir()
	if err := os.Mkdir(filepath.Join(games, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(GamesEnv, games)

	_, err := Find("zork9")
	if err == nil {
		t.Fatal("Find(zork9): no error")
	}
	for _, want := range []string{`"zork9"`, filepath.Join(games, "zork9"), filepath.Join(games, "zork9.z8")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Find(zork9) error %q does not mention %q", err, want)
		}
	}

	if _, err := Find(filepath.Join(games, "folder")); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("Find(a directory) = %v; want an error saying it is a directory", err)
	}
	if _, err := Find(""); err == nil {
		t.Error("Find(\"\"): no error")
	}
	// A relative path is looked up in the games folder too; an absolute
	// or ./ path is not.
	_, err = Find("nowhere/zork1")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(games, "nowhere", "zork1.z3")) {
		t.Errorf("Find(nowhere/zork1) = %v; want an error that lists %s", err, filepath.Join(games, "nowhere", "zork1.z3"))
	}
	for _, p := range []string{"./zork1", "/nowhere/zork1"} {
		if _, err = Find(p); err == nil || strings.Contains(err.Error(), games) {
			t.Errorf("Find(%s) = %v; want an error that does not search %s", p, err, games)
		}
	}

	t.Setenv(GamesEnv, "")
	_, err = Find("zork1")
	if err == nil || !strings.Contains(err.Error(), GamesEnv) {
		t.Errorf("Find(zork1) without %s = %v; want an error naming %s", GamesEnv, err, GamesEnv)
	}
}
