package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Files the user names on the command line are read bounded and only when
// regular (issue 35, item 10): a story, a script or a notebook that is a
// named pipe, /dev/zero or a link to it fails at once saying what it is,
// instead of hanging or reading without bound.
func TestUserNamedFilesBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	mdFifo := filepath.Join(dir, "pipe.md")
	if err := syscall.Mkfifo(mdFifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero.go")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	promptFifo := filepath.Join(dir, "prompt.txt")
	if err := syscall.Mkfifo(promptFifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "exp.yaml")
	yaml := "name: x\ngames: [lantern]\nseeds: [1]\nvariants:\n  - name: a\n    policy: walkthrough\n    system_prompt_file: prompt.txt\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	k8s := []string{"exp", "k8s", "--shards", "2", "--image", "img", "--pvc", "claim"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "/dev/zero"}, "a device, not a regular file"},
		{[]string{"play", fifo}, "a named pipe, not a regular file"},
		{[]string{"play", link}, "a device, not a regular file"},
		{[]string{"run", fifo}, "a named pipe, not a regular file"},
		{[]string{"run", mdFifo}, "a named pipe, not a regular file"},
		{[]string{"run", link}, "a device, not a regular file"},
		{[]string{"run", "/dev/zero"}, "a device, not a regular file"},
		{append(k8s[:len(k8s):len(k8s)], "/dev/zero"), "a device, not a regular file"},
		{append(k8s[:len(k8s):len(k8s)], fifo), "a named pipe, not a regular file"},
		{append(k8s[:len(k8s):len(k8s)], cfg), "a named pipe, not a regular file"},
	} {
		t.Run(c.args[0]+"_"+filepath.Base(c.args[len(c.args)-1]), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(c.args, strings.NewReader(""), &stdout, &stderr) }()
			select {
			case code := <-done:
				if code == 0 || !strings.Contains(stderr.String(), c.want) {
					t.Errorf("grue %s: exit %d, stderr %q; want a failure saying %q", strings.Join(c.args, " "), code, stderr.String(), c.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("grue %s hangs", strings.Join(c.args, " "))
			}
		})
	}
}
