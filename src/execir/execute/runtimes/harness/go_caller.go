// Package caller is the trusted part of the candidate's run when judged outside: it calls the
// program's entry point once per call line read from fd 3 (one at a time), with the arguments decoded into the
// entry's own parameter types, and writes one result line per call to fd 3:
// {"ok": results} (null without results, the value for one, a list for several; "args": the
// arguments after the call, when the call changed them), {"raised": "type"} (a panic or
// runtime.Goexit ended the call) or {"unsupported": "why"} (a value the wire cannot carry).
// Nothing this process writes is trusted: the judge only decodes it as values of the task's types.
package caller

import (
	"bytes"
	"os"
	"reflect"
	"syscall"

	"execir/wire"
)

func write(data []byte) {
	for len(data) > 0 {
		n, err := syscall.Write(3, data)
		if err != nil {
			os.Exit(124)
		}
		data = data[n:]
	}
}

func quoted(key, text string) []byte {
	out := append([]byte(`{"`+key+`":`), []byte(jsonText(text))...)
	return append(out, "}\n"...)
}

func jsonText(s string) string {
	out, _ := wire.Encode(nil, reflect.ValueOf(s))
	if len(out) > 0 && out[0] != '"' {
		return `"(not UTF-8)"`
	}
	return string(out)
}

// nextCall reads one call line from fd 3: the host writes call k+1 only once the result of call k
// is written, and ends the calls by shutting the channel (nil, false).
func nextCall(pending *[]byte) ([]byte, bool) {
	buf := make([]byte, 1<<16)
	for {
		if i := bytes.IndexByte(*pending, '\n'); i >= 0 {
			line := append([]byte(nil), (*pending)[:i]...)
			*pending = (*pending)[i+1:]
			return line, true
		}
		n, err := syscall.Read(3, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return nil, false
		}
		*pending = append(*pending, buf[:n]...)
	}
}

// Run calls entry (a function) once per call line of fd 3, in order, in this process.
func Run(entry any) {
	fn := reflect.ValueOf(entry)
	t := fn.Type()
	var pending []byte
	for {
		line, ok := nextCall(&pending)
		if !ok {
			return
		}
		if len(line) == 0 {
			continue
		}
		args, err := decodeArgs(t, line)
		if err != nil {
			write(quoted("unsupported", "arguments: "+err.Error()))
			continue
		}
		write(call(fn, t, args, line))
	}
}

func decodeArgs(t reflect.Type, line []byte) ([]reflect.Value, error) {
	doc, err := wire.Parse(line)
	if err != nil {
		return nil, err
	}
	list, ok := doc.([]any)
	if !ok || len(list) != t.NumIn() {
		return nil, errArity
	}
	args := make([]reflect.Value, len(list))
	for i := range list {
		if args[i], err = wire.Decode(list[i], t.In(i)); err != nil {
			return nil, err
		}
	}
	return args, nil
}

type arityError struct{}

func (arityError) Error() string { return "not the entry point's number of arguments" }

var errArity = arityError{}

// call runs one call on a goroutine of its own (a runtime.Goexit then ends only that goroutine)
// and returns its result line.
func call(fn reflect.Value, t reflect.Type, args []reflect.Value, before []byte) []byte {
	done := make(chan []byte, 1)
	go func() {
		returned := false
		defer func() {
			if returned {
				return
			}
			reason := recover()
			name := "runtime.Goexit"
			if reason != nil {
				name = reflect.TypeOf(reason).String()
			}
			done <- quoted("raised", name)
		}()
		var outs []reflect.Value
		if t.IsVariadic() {
			outs = fn.CallSlice(args)
		} else {
			outs = fn.Call(args)
		}
		returned = true
		done <- result(outs, args, before)
	}()
	return <-done
}

func result(outs []reflect.Value, args []reflect.Value, before []byte) []byte {
	var value []byte
	var err error
	switch len(outs) {
	case 0:
		value = []byte("null")
	case 1:
		value, err = wire.Encode(nil, outs[0])
	default:
		value = append(value, '[')
		for i, out := range outs {
			if i > 0 {
				value = append(value, ',')
			}
			if value, err = wire.Encode(value, out); err != nil {
				break
			}
		}
		value = append(value, ']')
	}
	if err != nil {
		return quoted("unsupported", err.Error())
	}
	line := append([]byte(`{"ok":`), value...)
	after, err := wire.Args(args)
	if err != nil {
		return quoted("unsupported", err.Error())
	}
	if !bytes.Equal(after, before) {
		line = append(append(line, `,"args":`...), after...)
	}
	return append(line, "}\n"...)
}
