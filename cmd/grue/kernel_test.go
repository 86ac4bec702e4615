package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grue-lab/grue/repl/kernel"
)

// jupyterPython returns a python3 that imports Jupyter's client and
// nbclient (Debian's jupyter-client, python3-nbclient): the one on PATH,
// else /usr/bin/python3. Without one the test skips, but with CI=true,
// where .ci/run installs them, it fails.
func jupyterPython(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		p, err := exec.LookPath(py)
		if err != nil {
			continue
		}
		if exec.Command(p, "-c", "import jupyter_client, nbclient").Run() == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no python3 with jupyter_client and nbclient (apt-get install jupyter-client python3-nbclient): with CI=true the kernel must be tested")
	}
	t.Skip("no python3 with jupyter_client and nbclient (apt-get install jupyter-client python3-nbclient)")
	return ""
}

// kernelspec writes a grue kernelspec whose argv runs this test binary as
// grue (TestMain) and returns the folder to give Jupyter as JUPYTER_PATH.
func kernelspec(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(bin, "grue")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	if _, err := kernel.Install(kernel.PrefixDir(dir), "grue", kernel.NewSpec(link, nil)); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "share", "jupyter")
}

// TestJupyterKernel drives grue kernel with Jupyter's own client
// (testdata/jupyter/driver.py): every message type, a bad signature
// refused, an interrupted endless loop, restart and shutdown.
func TestJupyterKernel(t *testing.T) {
	py := jupyterPython(t)
	cmd := exec.Command(py, "-u", filepath.Join("testdata", "jupyter", "driver.py"))
	cmd.Env = append(os.Environ(), "JUPYTER_PATH="+kernelspec(t), "GRUE_MODEL=", "OPENAI_BASE_URL=")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("driver.py: %v", err)
	}
	if !strings.Contains(string(out), "ok shutdown") {
		t.Fatal("driver.py ended before its last check")
	}
}

// TestExampleNotebooks executes the notebooks of experiments/notebooks
// with jupyter nbconvert --execute on grue's kernel: every cell must run
// without an error.
func TestExampleNotebooks(t *testing.T) {
	py := jupyterPython(t)
	games := gamesDir(t)
	if !fileExists(filepath.Join(games, "zork1.z3")) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no zork1.z3 in %s: with CI=true a missing story file is a failure", games)
		}
		t.Skipf("no zork1.z3 in %s (set GRUE_GAMES)", games)
	}
	jupyterPath := kernelspec(t)
	nbs, err := filepath.Glob(filepath.Join("..", "..", "experiments", "notebooks", "*.ipynb"))
	if err != nil || len(nbs) == 0 {
		t.Fatalf("no example notebooks: %v", err)
	}
	for _, nb := range nbs {
		t.Run(filepath.Base(nb), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.ipynb")
			cmd := exec.Command(py, "-m", "nbconvert", "--to", "notebook", "--execute",
				"--ExecutePreprocessor.timeout=120", "--output", out, nb)
			cmd.Env = append(os.Environ(), "JUPYTER_PATH="+jupyterPath, "GRUE_GAMES="+games, "GRUE_MODEL=", "OPENAI_BASE_URL=")
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("nbconvert --execute %s: %v\n%s", nb, err, b)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), `"output_type": "error"`) && strings.Contains(string(data), `"output_type"`) {
				return
			}
			t.Errorf("%s: the executed notebook has no outputs or an error output", nb)
		})
	}
}

// TestKernelExitsWithItsClient kills the client that started the kernel
// (testdata/jupyter/orphan.py, with SIGKILL): the kernel, its parent
// gone, shuts down within seconds, saying why, as Jupyter's own kernels
// do, rather than running on forever.
func TestKernelExitsWithItsClient(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc to tell that the kernel exited")
	}
	py := jupyterPython(t)
	logPath := filepath.Join(t.TempDir(), "log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(py, "-u", filepath.Join("testdata", "jupyter", "orphan.py"))
	cmd.Env = append(os.Environ(), "JUPYTER_PATH="+kernelspec(t), "GRUE_MODEL=", "OPENAI_BASE_URL=")
	// A file, not a pipe: the kernel inherits it, and a pipe would keep
	// Wait waiting for the kernel.
	cmd.Stdout, cmd.Stderr = log, log
	_ = cmd.Run() // it kills itself
	out, _ := os.ReadFile(logPath)
	var pid int
	for _, line := range strings.Split(string(out), "\n") {
		if n, ok := strings.CutPrefix(line, "kernel pid "); ok {
			pid, _ = strconv.Atoi(strings.TrimSpace(n))
		}
	}
	if pid <= 0 {
		t.Fatalf("orphan.py printed no kernel pid:\n%s", out)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	alive := func() bool {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false
		}
		// Exited but not reaped (an orphan whose init does not reap) is
		// state Z, after the command in parentheses.
		_, rest, _ := strings.Cut(string(stat), ") ")
		return !strings.HasPrefix(rest, "Z")
	}
	deadline := time.Now().Add(10 * time.Second)
	for alive() && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	out, _ = os.ReadFile(logPath)
	if alive() {
		t.Fatalf("the kernel (pid %d) runs on 10s after its client was killed:\n%s", pid, out)
	}
	if !regexp.MustCompile(`exited.*: shutting down`).Match(out) {
		t.Errorf("the kernel did not say why it shut down:\n%s", out)
	}
}
