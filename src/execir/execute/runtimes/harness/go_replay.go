package split

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strconv"

	"execir/wire"
)

// NeedStatus: the tests made a call the candidate was not asked (base.NEED_STATUS).
const NeedStatus = 3

var calls, results [][]byte

func lines(name string) [][]byte {
	data, err := os.ReadFile(name)
	if err != nil {
		Stop(126, err.Error())
	}
	found := bytes.SplitAfter(data, []byte{'\n'})
	kept := found[:0]
	for _, line := range found {
		if len(line) > 0 && line[len(line)-1] == '\n' {
			kept = append(kept, line[:len(line)-1])
		}
	}
	return kept
}

func say(key string, index int) {
	Write([]byte(`{"` + key + `":` + strconv.Itoa(index) + "}\n"))
}

// replay returns a function of f's type (f itself is never called) that replays the candidate's
// results: call i must have the arguments of line i of the calls (else the judge asks for that
// call: status NeedStatus), and returns line i of the results decoded into f's result types.
func replay[F any](f F) F {
	t := reflect.TypeOf(f)
	calls, results = lines(callsFile), lines(resultsFile)
	next := 0
	return reflect.MakeFunc(t, func(args []reflect.Value) []reflect.Value {
		lock.Lock()
		defer lock.Unlock()
		index := next
		next++
		line, err := ArgsLine(args)
		if err != nil {
			Stop(125, "an argument the wire cannot carry: "+err.Error())
		}
		if index >= len(calls) || !bytes.Equal(line, calls[index]) {
			say("need", index)
			Write(append(line, '\n'))
			os.Exit(NeedStatus)
		}
		if index >= len(results) {
			say("missing", index)
			os.Exit(1)
		}
		outs, raised, err := decodeResult(t, args, results[index])
		if err != nil {
			say("malformed", index)
			Stop(1, fmt.Sprintf("result %d: %v", index, err))
		}
		if raised != "" {
			panic("execir: the program panicked: " + raised)
		}
		return outs
	}).Interface().(F)
}

// decodeResult decodes one result line: the return values, or the panic the call raised; arguments the
// call changed (slices' elements, maps, pointees) are written back into the tests' arguments.
func decodeResult(t reflect.Type, args []reflect.Value, line []byte) ([]reflect.Value, string, error) {
	doc, err := wire.Parse(line)
	if err != nil {
		return nil, "", err
	}
	object, isObject := doc.(map[string]any)
	if !isObject {
		return nil, "", fmt.Errorf("not a result")
	}
	if raised, ok := object["raised"].(string); ok && len(object) == 1 {
		return nil, raised, nil
	}
	value, ok := object["ok"]
	changed, hasArgs := object["args"]
	if !ok || len(object) != 1 && !(len(object) == 2 && hasArgs) {
		return nil, "", fmt.Errorf("not a result")
	}
	outs, err := decodeOuts(t, value)
	if err != nil {
		return nil, "", err
	}
	if hasArgs {
		err = writeBack(t, args, changed)
	}
	return outs, "", err
}

func decodeOuts(t reflect.Type, value any) ([]reflect.Value, error) {
	switch t.NumOut() {
	case 0:
		if value != nil {
			return nil, fmt.Errorf("a value from a function without results")
		}
		return nil, nil
	case 1:
		out, err := wire.Decode(value, t.Out(0))
		return []reflect.Value{out}, err
	}
	list, ok := value.([]any)
	if !ok || len(list) != t.NumOut() {
		return nil, fmt.Errorf("not %d results", t.NumOut())
	}
	outs := make([]reflect.Value, len(list))
	for i := range list {
		var err error
		if outs[i], err = wire.Decode(list[i], t.Out(i)); err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// writeBack: what a call did to its arguments, done to the tests' own slices, maps and pointees.
func writeBack(t reflect.Type, args []reflect.Value, changed any) error {
	list, ok := changed.([]any)
	if !ok || len(list) != len(args) {
		return fmt.Errorf("not %d arguments", len(args))
	}
	for i, arg := range args {
		after, err := wire.Decode(list[i], t.In(i))
		if err != nil {
			return err
		}
		switch arg.Kind() {
		case reflect.Slice:
			if after.Len() != arg.Len() || after.IsNil() != arg.IsNil() {
				return fmt.Errorf("argument %d changed length", i)
			}
			reflect.Copy(arg, after)
		case reflect.Map:
			if after.IsNil() != arg.IsNil() {
				return fmt.Errorf("argument %d changed to or from nil", i)
			}
			for _, key := range arg.MapKeys() {
				arg.SetMapIndex(key, reflect.Value{})
			}
			for iter := after.MapRange(); iter.Next(); {
				arg.SetMapIndex(iter.Key(), iter.Value())
			}
		case reflect.Pointer:
			if after.IsNil() != arg.IsNil() {
				return fmt.Errorf("argument %d changed to or from nil", i)
			}
			if !arg.IsNil() {
				arg.Elem().Set(after.Elem())
			}
		}
	}
	return nil
}
