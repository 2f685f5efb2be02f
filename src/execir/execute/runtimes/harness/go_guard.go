package guard

import (
	"flag"
	"fmt"
	"os"
	"strings"
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

func init() {
	const key = "EXECIR_NONCE="
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
