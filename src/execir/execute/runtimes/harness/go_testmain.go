package main

import (
	"os"
	"syscall"
	"testing"
	"testing/internal/testdeps"

	guard "execir/guard"
	_test "execir/prog"
)

var tests = []testing.InternalTest{
%s}

func main() {
	code := testing.MainStart(testdeps.TestDeps{}, tests, nil, nil, nil).Run()
	if code == 0 {
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
	}
	os.Exit(code)
}
