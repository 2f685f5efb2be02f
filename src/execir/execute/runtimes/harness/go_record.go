package split

import "reflect"

// record returns a function of f's type that writes each call's arguments (taken before the call)
// to the report channel as one line, then calls f.
func record[F any](f F) F {
	fn := reflect.ValueOf(f)
	variadic := fn.Type().IsVariadic()
	return reflect.MakeFunc(fn.Type(), func(args []reflect.Value) []reflect.Value {
		line, err := ArgsLine(args)
		if err != nil {
			Stop(125, "an argument the wire cannot carry: "+err.Error())
		}
		lock.Lock()
		Write(append(line, '\n'))
		lock.Unlock()
		if variadic {
			return fn.CallSlice(args)
		}
		return fn.Call(args)
	}).Interface().(F)
}
