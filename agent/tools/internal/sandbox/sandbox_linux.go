// Package sandbox runs the shell commands of tools.Workspace (run_shell)
// confined, on Linux. The mechanism, in layers, each detected at run
// time:
//
//  1. grue makes itself non-dumpable (prctl PR_SET_DUMPABLE 0) before it
//     starts a command ([MakeUndumpable]). The kernel then lets only a
//     process with CAP_SYS_PTRACE in the initial user namespace read
//     grue's /proc/<pid>/environ, mem, maps or fd, or ptrace it, whatever
//     its uid. From then on grue leaves no core dump, and a debugger
//     must attach as root.
//  2. The command runs under a helper: grue's own executable started
//     again (/proc/self/exe) with argv[0] "grue-shell-sandbox", which
//     this package's init function recognises before main runs. The
//     helper (or, in namespaces, their init: see 3) starts the
//     executable once more as "grue-shell-exec", which
//     sets the resource limits on itself (Go's SysProcAttr has none, and
//     prlimit after the start would race the command; set in the helper
//     they would also hold the helper's own threads), gives up every
//     capability (empties the bounding set, locks the securebits so that
//     uid 0 gets none back at exec, clears the rest), sets no_new_privs
//     and execs `sh -c`. So the command has no capability at all, even
//     when grue runs as root, and layer 1 holds against it.
//  3. Where user namespaces can be made (the default of most
//     distributions, for ordinary users and root alike), the helper
//     starts the executable as "grue-shell-init" in new user, PID and
//     mount namespaces, uid 0 inside mapped to grue's uid, which mounts a
//     fresh /proc and starts "grue-shell-exec". (The helper, not grue,
//     makes the namespaces: writing a child's uid_map needs the child
//     dumpable, and a child of a non-dumpable grue is not, while the
//     helper, a fresh exec, is.) The command sees no process but its own
//     (its $PPID is that init, whose environment is the filtered one);
//     having no capability, it cannot unmount that /proc to see the
//     machine's; and killing the helper kills the init (its parent-death
//     signal), and so every process of the namespace: setsid and double
//     forks do not escape the time limit. The init also counts the
//     namespace's processes and ends the command when they pass the cap,
//     which matters for root, whom the kernel exempts from RLIMIT_NPROC.
//  4. Without user namespaces (a container that forbids them), the
//     helper runs in grue's namespaces as a child subreaper: orphans of
//     the command are re-parented to it, and it kills every descendant
//     when the command ends or the time limit comes. That mode is
//     best-effort: a command that kills the helper (it runs as the same
//     user) can leave processes behind; other processes of grue's user
//     are visible, and readable when they are dumpable (the shell that
//     started grue may hold the API key in its environment); the
//     process cap is RLIMIT_NPROC alone, counted over all of the user's
//     processes, and not enforced for root.
//
// What it is not: a filesystem sandbox. The command runs as grue's user
// (as uid 0 without capabilities when grue is root) and can read and
// write whatever that user can, outside the workspace too: the user's
// own files (a key in a dotfile), and, for root, root-owned files. Root
// can ask for another uid (Config.UID, tools.Workspace.ShellUID): the
// command then runs as that unprivileged user, to whom the workspace and
// the caches it uses must be reachable and writable (grue changes no
// owner). Run untrusted agents as an unprivileged user, or in a
// container or VM.
//
// The limits are rlimits, per process: CPU time (SIGXCPU, then SIGKILL a
// second later), address space (RLIMIT_AS, so `go test -race` needs a
// large one), file size (SIGXFSZ) and processes (RLIMIT_NPROC, counted
// per user namespace since Linux 5.14). A command costs three starts of
// grue's executable: this package has no dependency beyond the standard
// library and x/sys, so that its init function runs before grue's
// heavier packages are initialised (44 ms for `true` in all, against
// 1.4 ms unconfined, on a busy 2-core machine).
package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The argv[0]s that make grue's executable the sandbox helper, or the
// helper's child that limits itself and becomes sh, instead of grue.
const (
	helperArg0 = "grue-shell-sandbox"
	initArg0   = "grue-shell-init"
	execArg0   = "grue-shell-exec"
)

func init() {
	if len(os.Args) == 3 {
		switch os.Args[0] {
		case helperArg0:
			os.Exit(helperMain(os.Args[1], os.Args[2]))
		case initArg0:
			os.Exit(initMain(os.Args[1], os.Args[2]))
		case execArg0:
			os.Exit(execMain(os.Args[1], os.Args[2]))
		}
	}
}

// Config is what the helper is told, as JSON in its argv[1].
type Config struct {
	// NS says the helper is the init of new user, PID and mount
	// namespaces.
	NS bool `json:"ns"`
	// The limits; 0 is none.
	CPUSeconds uint64 `json:"cpu,omitempty"`
	Memory     uint64 `json:"mem,omitempty"`
	FileSize   uint64 `json:"fsize,omitempty"`
	Procs      uint64 `json:"procs,omitempty"`
	// UID, when above 0, is the uid (and gid) the command runs as
	// instead of grue's; only root may ask for it.
	UID int `json:"uid,omitempty"`
	// Network keeps the command in grue's network namespace. Without
	// it (and with NS) the command runs in a new network namespace,
	// with no interface but a loopback that is down: no connection to
	// anything, 127.0.0.1 included.
	Network bool `json:"net,omitempty"`
}

// The helper's answers on its status pipe (file descriptor 3): a line
// "kind detail".
const (
	StatusExit   = "exit"   // "exit N": sh exited with status N
	StatusSignal = "signal" // "signal N": a signal ended sh
	StatusProcs  = "procs"  // "procs N": N processes, over the cap
	StatusNSFail = "nsfail" // "nsfail why": the namespaces could not be set up
	StatusFail   = "fail"   // "fail why": the helper could not start sh
)

// Command returns the command that starts the helper for `sh -c
// command` in dir with cfg and env, writing its output to out and its
// report to status: a line "kind detail" (StatusExit and the others).
func Command(dir, command string, cfg Config, env []string, out, status *os.File) (*exec.Cmd, error) {
	arg, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("/proc/self/exe", string(arg), command)
	cmd.Args[0] = helperArg0
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = out, out
	cmd.ExtraFiles = []*os.File{status}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	uid, gid := os.Getuid(), os.Getgid()
	if cfg.UID > 0 {
		if uid != 0 {
			return nil, fmt.Errorf("only root can run commands as uid %d", cfg.UID)
		}
		uid, gid = cfg.UID, cfg.UID
	}
	if cfg.UID > 0 && !cfg.NS {
		attr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
	}
	cmd.SysProcAttr = attr
	return cmd, nil
}

// MakeUndumpable is layer 1: the calling process's /proc files and
// memory become unreadable to any process without CAP_SYS_PTRACE.
func MakeUndumpable() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("make the process non-dumpable: %w", err)
	}
	return nil
}

// helperMain is the helper: in namespace mode it starts initMain in new
// namespaces and waits for it; otherwise it supervises the command
// itself as a subreaper. Reports go to file descriptor 3, a line "kind
// detail". It returns the helper's exit status.
func helperMain(cfgArg, command string) int {
	syscall.CloseOnExec(3)
	status := os.NewFile(3, "status")
	var cfg Config
	if err := json.Unmarshal([]byte(cfgArg), &cfg); err != nil {
		fmt.Fprintf(status, "%s bad configuration: %v\n", StatusFail, err)
		return 125
	}
	// The helper's own memory is nobody's business either (set after
	// the exec: a fresh exec is dumpable).
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	if !cfg.NS {
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			fmt.Fprintf(status, "%s subreaper: %v\n", StatusFail, err)
			return 125
		}
		return supervise(cfg, cfgArg, command, status)
	}
	uid, gid := os.Getuid(), os.Getgid()
	if cfg.UID > 0 {
		uid, gid = cfg.UID, cfg.UID
	}
	// The init's parent-death signal follows the thread that forks it.
	runtime.LockOSThread()
	// Dumpable again for a moment, so that the child's uid_map can be
	// written; nothing of the helper is secret.
	unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS)
	if !cfg.Network {
		flags |= syscall.CLONE_NEWNET
	}
	pid, err := syscall.ForkExec("/proc/self/exe", []string{initArg0, cfgArg, command}, &syscall.ProcAttr{
		Env: os.Environ(), Files: []uintptr{0, 1, 2, 3}, Sys: &syscall.SysProcAttr{
			Cloneflags:                 flags,
			UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}},
			GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}},
			GidMappingsEnableSetgroups: false,
			Pdeathsig:                  syscall.SIGKILL,
		}})
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	if err != nil {
		fmt.Fprintf(status, "%s new namespaces: %v\n", StatusNSFail, err)
		return 125
	}
	for {
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
			return 0
		}
	}
}

// initMain is the init of the new namespaces: it mounts a fresh /proc
// and supervises the command.
func initMain(cfgArg, command string) int {
	syscall.CloseOnExec(3)
	status := os.NewFile(3, "status")
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	var cfg Config
	if err := json.Unmarshal([]byte(cfgArg), &cfg); err != nil {
		fmt.Fprintf(status, "%s bad configuration: %v\n", StatusFail, err)
		return 125
	}
	if err := mountProc(); err != nil {
		fmt.Fprintf(status, "%s %v\n", StatusNSFail, err)
		return 125
	}
	return supervise(cfg, cfgArg, command, status)
}

// supervise runs `sh -c command` through execMain, reaps every process
// re-parented to it, and reports how sh ended on status. Outside
// namespaces it then kills every descendant left.
func supervise(cfg Config, cfgArg, command string, status *os.File) int {
	report := func(kind, detail string) { fmt.Fprintf(status, "%s %s\n", kind, detail) }
	// Handled (not ignored) signals go back to their defaults in sh. The
	// parent ends a helper outside namespaces with SIGUSR1.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE)
	// The limits are set in the child, which then becomes sh: set here,
	// they would hold the supervisor's own threads too.
	pid, err := syscall.ForkExec("/proc/self/exe", []string{execArg0, cfgArg, command}, &syscall.ProcAttr{
		Env: os.Environ(), Files: []uintptr{0, 1, 2, 3}, Sys: &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		report(StatusFail, "start sh: "+err.Error())
		return 125
	}
	kind, detail := superviseShell(pid, cfg, sigs)
	if !cfg.NS {
		killDescendants()
	}
	report(kind, detail)
	return 0
}

// execMain limits the process, gives up every capability and
// becomes `sh -c command`. A failure is reported on file descriptor 3,
// before the helper's own report.
func execMain(cfgArg, command string) int {
	runtime.LockOSThread() // credentials are per thread: this one execs sh
	syscall.CloseOnExec(3)
	fail := func(err error) int {
		fmt.Fprintf(os.NewFile(3, "status"), "%s %s\n", StatusFail, err)
		return 125
	}
	var cfg Config
	if err := json.Unmarshal([]byte(cfgArg), &cfg); err != nil {
		return fail(fmt.Errorf("bad configuration: %w", err))
	}
	if err := dropCapabilities(); err != nil {
		return fail(err)
	}
	// Everything execve needs is made before the limits: under a small
	// address space, the Go runtime may not grow its heap any more.
	path, err := syscall.BytePtrFromString("/bin/sh")
	if err != nil {
		return fail(err)
	}
	argv, err := syscall.SlicePtrFromStrings([]string{"sh", "-c", command})
	if err != nil {
		return fail(err)
	}
	envv, err := syscall.SlicePtrFromStrings(os.Environ())
	if err != nil {
		return fail(err)
	}
	if err := setLimits(cfg); err != nil {
		return fail(err)
	}
	_, _, errno := syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(path)),
		uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])))
	return fail(fmt.Errorf("start sh: %w", errno))
}

// superviseShell reaps every process re-parented to the helper until sh
// (pid) ends, and says how it ended; it gives up early at a signal from
// the parent or, in a PID namespace, when there are more processes than
// cfg.Procs.
func superviseShell(pid int, cfg Config, sigs <-chan os.Signal) (kind, detail string) {
	ended := make(chan syscall.WaitStatus, 1)
	go func() {
		for {
			var ws syscall.WaitStatus
			wpid, err := syscall.Wait4(-1, &ws, 0, nil)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				// No child now; orphans may yet be re-parented here.
				time.Sleep(5 * time.Millisecond)
				continue
			}
			if wpid == pid {
				ended <- ws
			}
		}
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case ws := <-ended:
			if ws.Signaled() {
				return StatusSignal, strconv.Itoa(int(ws.Signal()))
			}
			return StatusExit, strconv.Itoa(ws.ExitStatus())
		case s := <-sigs:
			if s == syscall.SIGUSR1 {
				return StatusSignal, strconv.Itoa(int(syscall.SIGKILL))
			}
		case <-tick.C:
			if !cfg.NS || cfg.Procs == 0 {
				continue
			}
			if n := countProcs(); uint64(n) > cfg.Procs {
				return StatusProcs, strconv.Itoa(n)
			}
		}
	}
}

// mountProc makes the mount namespace's mounts private and mounts a
// /proc that shows only the new PID namespace.
func mountProc() error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	return nil
}

// setLimits lowers the soft and hard limits of the helper, which sh and
// its children inherit.
func setLimits(cfg Config) error {
	limits := []struct {
		res  int
		name string
		v    uint64
	}{
		{unix.RLIMIT_CPU, "CPU time", cfg.CPUSeconds},
		{unix.RLIMIT_FSIZE, "file size", cfg.FileSize},
		{unix.RLIMIT_NPROC, "processes", cfg.Procs},
		{unix.RLIMIT_CORE, "core size", 0},
		{unix.RLIMIT_AS, "memory", cfg.Memory}, // last: it may stop the heap growing
	}
	for _, l := range limits {
		if l.v == 0 && l.res != unix.RLIMIT_CORE {
			continue
		}
		var old unix.Rlimit
		if err := unix.Getrlimit(l.res, &old); err != nil {
			return fmt.Errorf("get the %s limit: %w", l.name, err)
		}
		lim := unix.Rlimit{Cur: l.v, Max: l.v}
		if l.res == unix.RLIMIT_CPU {
			// SIGXCPU at the soft limit says why; SIGKILL a second later.
			lim.Max++
		}
		// Never raise a limit grue already has.
		lim.Cur, lim.Max = min(lim.Cur, old.Max), min(lim.Max, old.Max)
		if err := unix.Setrlimit(l.res, &lim); err != nil {
			return fmt.Errorf("limit %s to %d: %w", l.name, lim.Cur, err)
		}
	}
	return nil
}

// Securebits that keep uid 0 from getting capabilities back at exec,
// locked: NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED, NO_CAP_AMBIENT_RAISE
// and their locks (linux/securebits.h).
const lockedNoRoot = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<5 | 1<<6 | 1<<7

// dropCapabilities gives up every capability of this thread for good,
// and sets no_new_privs. It fails when uid 0 could get any back at
// exec; an ordinary user, who cannot change the bounding set, has none
// to lose.
func dropCapabilities() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	for c := 0; c < 64; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err == unix.EINVAL {
			break // past the last capability
		}
	}
	secureErr := unix.Prctl(unix.PR_SET_SECUREBITS, lockedNoRoot, 0, 0, 0)
	unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var none [2]unix.CapUserData
	if err := unix.Capset(&hdr, &none[0]); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	var got [2]unix.CapUserData
	if err := unix.Capget(&hdr, &got[0]); err != nil {
		return fmt.Errorf("read capabilities: %w", err)
	}
	if got != none {
		return errors.New("capabilities remain after dropping them")
	}
	if os.Geteuid() == 0 && secureErr != nil {
		for c := 0; c < 64; c++ {
			if r, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0); err == nil && r == 1 {
				return fmt.Errorf("uid 0 would get capability %d back at exec: %w", c, secureErr)
			}
		}
	}
	return nil
}

// countProcs returns the number of processes /proc shows.
func countProcs() int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			n++
		}
	}
	return n
}

// killDescendants kills the helper's children until it has none: the
// helper is a subreaper, so each killed process's children become its
// own. The reaper goroutine of superviseShell collects them.
func killDescendants() {
	self := os.Getpid()
	for range 1000 {
		kids := childrenOf(self)
		if len(kids) == 0 {
			return
		}
		for _, k := range kids {
			syscall.Kill(k, syscall.SIGKILL)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// childrenOf returns the processes whose parent is pid, from /proc.
func childrenOf(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var kids []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			if ppid, err := strconv.Atoi(f[1]); err == nil && ppid == pid {
				kids = append(kids, p)
			}
		}
	}
	return kids
}
