package main

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"testing/internal/testdeps"

	guard "@GUARD@"
	_test "execir/prog"
)

// every listed test runs, whatever -test.run (or a pattern set by candidate code) says
type matchAll struct{ testdeps.TestDeps }

func (matchAll) MatchString(pattern, name string) (bool, error) { return true, nil }

// Everything the run's outcome rests on is a local of main, not a package variable: candidate code
// cannot reach a local by name (//go:linkname is refused at build time, and the guard's import
// path is drawn per run).
func main() {
	if err := guard.Arm(map[string]string{"test.paniconexit0": "true", "test.timeout": "0"}); err != nil {
		fmt.Fprintln(os.Stderr, "execir: test flags:", err)
		os.Exit(120)
	}
	// completed[i]: how many times test i returned normally, neither failed nor skipped
	var completed []int
	ran := func(i int, test func(*testing.T)) func(*testing.T) {
		return func(t *testing.T) {
			test(t) // t.FailNow, t.Skip, runtime.Goexit and panics do not come back here
			if !t.Failed() && !t.Skipped() {
				completed[i]++
			}
		}
	}
	// the test functions of the tests file, in order, each wrapped by ran (filled in by go.py)
	tests := []testing.InternalTest{
%s	}
	if len(tests) == 0 {
		os.Exit(119)
	}
	completed = make([]int, len(tests))
	code := testing.MainStart(matchAll{}, tests, nil, nil, nil).Run()
	if code != 0 {
		os.Exit(code)
	}
	for _, n := range completed {
		if n != 1 { // not run (-test.list, -test.count=0, ...), skipped, or run more than once
			os.Exit(121)
		}
	}
	record := []byte(guard.Take() + "\n")
	if len(record) == 1 {
		os.Exit(122)
	}
	for len(record) > 0 {
		n, err := syscall.Write(3, record)
		if err != nil {
			os.Exit(123)
		}
		record = record[n:]
	}
	os.Exit(0)
}
