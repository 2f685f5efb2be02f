package guard

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

//go:linkname argc runtime.argc
var argc int32

//go:linkname argv runtime.argv
var argv **byte

var nonce string

// a test flag as testing.Init registered it, before any candidate code ran
type saved struct {
	flag  *flag.Flag
	value flag.Value
	def   string
}

var (
	program     string
	commandLine *flag.FlagSet
	testFlags   []saved
)

// one instruction of a classic BPF program (struct sock_filter)
type bpf struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

// struct sock_fprog
type bpfProgram struct {
	len    uint16
	filter *bpf
}

// forbidExec installs a seccomp filter on every thread of the process (inherited by children) that
// answers execve and execveat with EPERM: no program may run once the guard has started, so the
// program cannot run the tests' executable again (/proc/self/exe, with guessed answers and a nonce
// of its own) to learn the expected answers. The error: the filter is not installed.
func forbidExec() error {
	var arch, prctl, seccomp, execve, execveat uint32
	switch runtime.GOARCH {
	case "amd64":
		arch, prctl, seccomp, execve, execveat = 0xc000003e, 157, 317, 59, 322
	case "arm64":
		arch, prctl, seccomp, execve, execveat = 0xc00000b7, 167, 277, 221, 281
	default:
		return fmt.Errorf("no seccomp filter for %s", runtime.GOARCH)
	}
	const (
		load, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06 // BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_JMP|BPF_JGE|BPF_K, BPF_RET|BPF_K
		allow, eperm        = 0x7fff0000, 0x00050000 | 1
	)
	filter := []bpf{
		{load, 0, 0, 4}, // seccomp_data.arch
		{jeq, 1, 0, arch},
		{ret, 0, 0, eperm}, // another ABI
		{load, 0, 0, 0}, // seccomp_data.nr
		{jge, 3, 0, 0x40000000}, // x32 numbers
		{jeq, 2, 0, execve},
		{jeq, 1, 0, execveat},
		{ret, 0, 0, allow},
		{ret, 0, 0, eperm},
	}
	program := bpfProgram{uint16(len(filter)), &filter[0]}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, _, errno := syscall.RawSyscall6(uintptr(prctl), 38, 1, 0, 0, 0, 0); errno != 0 { // PR_SET_NO_NEW_PRIVS
		return errno
	}
	// SECCOMP_SET_MODE_FILTER with SECCOMP_FILTER_FLAG_TSYNC
	if r, _, errno := syscall.RawSyscall(uintptr(seccomp), 1, 1, uintptr(unsafe.Pointer(&program))); errno != 0 || r != 0 {
		return fmt.Errorf("seccomp: %v (thread %d)", errno, r)
	}
	runtime.KeepAlive(filter)
	return nil
}

func init() {
	const key = "EXECIR_NONCE="
	forbidden := forbidExec()
	nonce = os.Getenv("EXECIR_NONCE")
	// the runtime copied the environment; the original block (what /proc/self/environ shows)
	// follows argv on the initial stack: overwrite the nonce there, before os.Unsetenv (with cgo
	// linked in, it also calls unsetenv(3), which drops the pointer from that array)
	slot := uintptr(unsafe.Pointer(argv)) + uintptr(argc+1)*unsafe.Sizeof(argv)
	for i := 0; i < 4096; i++ {
		entry := *(**byte)(unsafe.Pointer(slot + uintptr(i)*unsafe.Sizeof(argv)))
		if entry == nil {
			break
		}
		n := 0
		for *(*byte)(unsafe.Add(unsafe.Pointer(entry), n)) != 0 {
			n++
		}
		text := unsafe.Slice(entry, n)
		if strings.HasPrefix(string(text), key) {
			for j := len(key); j < n; j++ {
				text[j] = '0'
			}
		}
	}
	os.Unsetenv("EXECIR_NONCE")
	if forbidden != nil {
		fmt.Fprintln(os.Stderr, "execir: could not forbid exec:", forbidden)
		nonce = "" // no record: the run FAILs
	}
	// register the test flags now, before the candidate's package initializes, and remember them
	// (the flag, its value and its default) so that Arm can undo whatever candidate code set
	testing.Init()
	program = "prog"
	if len(os.Args) > 0 {
		program = os.Args[0]
	}
	commandLine = flag.CommandLine
	commandLine.VisitAll(func(f *flag.Flag) {
		if strings.HasPrefix(f.Name, "test.") {
			testFlags = append(testFlags, saved{f, f.Value, f.DefValue})
		}
	})
}

// Arm undoes what candidate code (package variables, init functions) may have done to the test
// run's configuration: os.Args and flag.CommandLine back to the originals, every test flag back to
// its default, then the oracle's own settings, and the command line marked parsed so that
// testing's Run takes nothing from os.Args. The error: a flag that would not take its value.
func Arm(settings map[string]string) error {
	os.Args = []string{program}
	flag.CommandLine = commandLine
	for _, s := range testFlags {
		s.flag.Value, s.flag.DefValue = s.value, s.def
		value := s.def
		if v, set := settings[s.flag.Name]; set {
			value = v
		}
		if s.value.String() == value {
			continue // unchanged (some defaults, -test.fuzztime's 0s, do not parse back)
		}
		if err := s.value.Set(value); err != nil {
			return fmt.Errorf("-%s=%s: %w", s.flag.Name, value, err)
		}
	}
	return commandLine.Parse(nil)
}

// Take returns the nonce once.
func Take() string {
	taken := nonce
	nonce = ""
	return taken
}
