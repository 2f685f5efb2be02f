// Package split holds what the judged-outside record and judge runs share: the entry point's
// arguments as one wire line, writes to the report channel (fd 3) and a deterministic clock.
// The recorder (go_record.go) and the replayer (go_replay.go) are compiled beside it.
package split

import (
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"syscall"

	"execir/wire"
)

const (
	callsFile   = "execir_calls.jsonl"
	resultsFile = "execir_results.jsonl"
)

// Wrap returns the stand-in for the tests' entry point, of f's type: the recorder (calls f) in the
// record run, the replayer (never calls f) in a judge run, told apart by the results file, which
// only a judge run has. One executable serves both.
func Wrap[F any](f F) F {
	if _, err := os.Stat(resultsFile); err == nil {
		return replay(f)
	}
	return record(f)
}

// Report is the channel the oracle reads (the calls, the judge's requests, the nonce).
const Report = 3

var lock sync.Mutex

// ArgsLine is the wire text of one call's arguments (see wire.Args).
func ArgsLine(args []reflect.Value) ([]byte, error) { return wire.Args(args) }

// Write writes data to the report channel whole, or exits.
func Write(data []byte) {
	for len(data) > 0 {
		n, err := syscall.Write(Report, data)
		if err != nil {
			os.Exit(124)
		}
		data = data[n:]
	}
}

// Stop reports a fatal problem of the trusted run on stderr and ends it with status.
func Stop(status int, message string) {
	os.Stderr.WriteString("execir: " + message + "\n")
	os.Exit(status)
}

var tick int64

// Clock stands in for time.Now's nanoseconds in the tests of trusted runs: the same sequence in
// the record and in every judge run, so tests seeding a generator from the time make the same calls.
func Clock() int64 {
	return 1700000000000000000 + 7919*atomic.AddInt64(&tick, 1)
}
