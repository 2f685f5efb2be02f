// Package wire is the judged-outside codec of Go values: the JSON text of a value of a known type,
// exact (floats round-trip, NaN/Inf/-0 kept, integers checked against their width, strings kept
// byte for byte, nil slices and maps apart from empty ones) and canonical (map entries sorted), so
// that equal values always have the same text. Interface values carry their dynamic type's name;
// only types built from Go's predeclared types cross inside an interface.
//
// Text of a value of type T: bool true/false; integers in decimal; floats strconv's shortest
// round-trip text, or "NaN", "+Inf", "-Inf"; complex [re, im]; string a JSON string when valid
// UTF-8, else {"x": "<hex bytes>"}; slice null (nil) or [elements]; array [elements]; map null
// (nil) or [[key, value], ...] sorted by the key's text; pointer null or [pointee]; struct
// [fields]; error null or {"error": message}; other interfaces null or {"t": type, "v": value}.
package wire

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth bounds nesting on both sides (deeper values are refused, never a crash of the judge).
const MaxDepth = 2000

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// Encode appends the text of v (of its static type) to out.
// Args is the wire text of one call's arguments: a JSON array, the variadic part as a slice. The
// recorder, the judge's replayer and the candidate's caller all encode arguments with it, so equal
// arguments are equal text on every side.
func Args(args []reflect.Value) ([]byte, error) {
	line := []byte{'['}
	for i, arg := range args {
		if i > 0 {
			line = append(line, ',')
		}
		var err error
		if line, err = Encode(line, arg); err != nil {
			return nil, err
		}
	}
	return append(line, ']'), nil
}

func Encode(out []byte, v reflect.Value) ([]byte, error) {
	return encode(out, v, 0)
}

func encode(out []byte, v reflect.Value, depth int) ([]byte, error) {
	if depth > MaxDepth {
		return out, errors.New("value nested too deeply")
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(out, v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(out, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(out, v.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return appendFloat(out, v.Float(), v.Type().Bits()), nil
	case reflect.Complex64, reflect.Complex128:
		bits := v.Type().Bits() / 2
		out = appendFloat(append(out, '['), real(v.Complex()), bits)
		return append(appendFloat(append(out, ','), imag(v.Complex()), bits), ']'), nil
	case reflect.String:
		return appendString(out, v.String()), nil
	case reflect.Slice:
		if v.IsNil() {
			return append(out, "null"...), nil
		}
		return encodeList(out, v, depth)
	case reflect.Array:
		return encodeList(out, v, depth)
	case reflect.Map:
		return encodeMap(out, v, depth)
	case reflect.Pointer:
		if v.IsNil() {
			return append(out, "null"...), nil
		}
		out, err := encode(append(out, '['), v.Elem(), depth+1)
		return append(out, ']'), err
	case reflect.Struct:
		out = append(out, '[')
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				out = append(out, ',')
			}
			var err error
			if out, err = encode(out, readable(v.Field(i)), depth+1); err != nil {
				return out, err
			}
		}
		return append(out, ']'), nil
	case reflect.Interface:
		return encodeInterface(out, v, depth)
	}
	return out, fmt.Errorf("a %s cannot cross", v.Type())
}

// readable: an unexported struct field, readable through reflect only as a copy at its address
func readable(v reflect.Value) reflect.Value {
	if v.CanInterface() || !v.CanAddr() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

func encodeList(out []byte, v reflect.Value, depth int) ([]byte, error) {
	out = append(out, '[')
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = encode(out, v.Index(i), depth+1); err != nil {
			return out, err
		}
	}
	return append(out, ']'), nil
}

func encodeMap(out []byte, v reflect.Value, depth int) ([]byte, error) {
	if v.IsNil() {
		return append(out, "null"...), nil
	}
	entries := make([][2][]byte, 0, v.Len())
	iter := v.MapRange()
	for iter.Next() {
		key, err := encode(nil, iter.Key(), depth+1)
		if err != nil {
			return out, err
		}
		value, err := encode(nil, iter.Value(), depth+1)
		if err != nil {
			return out, err
		}
		entries = append(entries, [2][]byte{key, value})
	}
	sort.Slice(entries, func(i, j int) bool {
		if c := bytes.Compare(entries[i][0], entries[j][0]); c != 0 {
			return c < 0
		}
		return bytes.Compare(entries[i][1], entries[j][1]) < 0
	})
	out = append(out, '[')
	for i, e := range entries {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(append(append(append(out, '['), e[0]...), ','), e[1]...), ']')
	}
	return append(out, ']'), nil
}

func encodeInterface(out []byte, v reflect.Value, depth int) ([]byte, error) {
	if v.IsNil() {
		return append(out, "null"...), nil
	}
	if v.Type() == errorType {
		return append(appendString(append(out, `{"error":`...), v.Interface().(error).Error()), '}'), nil
	}
	inner := v.Elem()
	name, err := typeName(inner.Type())
	if err != nil {
		return out, err
	}
	out = append(appendString(append(out, `{"t":`...), name), `,"v":`...)
	out, err = encode(out, inner, depth+1)
	return append(out, '}'), err
}

func appendFloat(out []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(out, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(out, `"+Inf"`...)
	case math.IsInf(f, -1):
		return append(out, `"-Inf"`...)
	}
	return strconv.AppendFloat(out, f, 'g', -1, bits)
}

func appendString(out []byte, s string) []byte {
	if !utf8.ValidString(s) {
		return append(append(append(out, `{"x":"`...), hex.EncodeToString([]byte(s))...), `"}`...)
	}
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c < 0x20 || c == 0x7f:
			out = append(out, fmt.Sprintf(`\u%04x`, c)...)
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}

// typeName: the name of a type built from predeclared types only (the one reflect prints)
func typeName(t reflect.Type) (string, error) {
	if t.PkgPath() != "" {
		return "", fmt.Errorf("a %s (a named type) cannot cross inside an interface", t)
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.Pointer:
		if _, err := typeName(t.Elem()); err != nil {
			return "", err
		}
		if t.Kind() == reflect.Map {
			if _, err := typeName(t.Key()); err != nil {
				return "", err
			}
		}
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return "", fmt.Errorf("a %s cannot cross inside an interface", t)
		}
	case reflect.Struct, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return "", fmt.Errorf("a %s cannot cross inside an interface", t)
	}
	return t.String(), nil
}

// ---- decoding ---------------------------------------------------------------------------------

// Parse reads one JSON document (numbers kept as text).
func Parse(text []byte) (any, error) {
	decoder := json.NewDecoder(bytes.NewReader(text))
	decoder.UseNumber()
	var value any
	if err := decoder.Decode(&value); err != nil {
		return nil, err
	}
	if decoder.More() {
		return nil, errors.New("text after the value")
	}
	return value, nil
}

// Decode builds a value of type t from parsed text (strict: every mismatch is an error).
func Decode(doc any, t reflect.Type) (reflect.Value, error) {
	v := reflect.New(t).Elem()
	return v, decode(doc, v, 0)
}

func decode(doc any, v reflect.Value, depth int) error {
	if depth > MaxDepth {
		return errors.New("value nested too deeply")
	}
	t := v.Type()
	switch t.Kind() {
	case reflect.Bool:
		b, ok := doc.(bool)
		if !ok {
			return mismatch(doc, t)
		}
		v.SetBool(b)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := doc.(json.Number)
		if !ok {
			return mismatch(doc, t)
		}
		i, err := strconv.ParseInt(string(n), 10, t.Bits())
		if err != nil {
			return err
		}
		v.SetInt(i)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, ok := doc.(json.Number)
		if !ok {
			return mismatch(doc, t)
		}
		u, err := strconv.ParseUint(string(n), 10, t.Bits())
		if err != nil {
			return err
		}
		v.SetUint(u)
		return nil
	case reflect.Float32, reflect.Float64:
		f, err := parseFloat(doc, t.Bits())
		if err != nil {
			return err
		}
		v.SetFloat(f)
		return nil
	case reflect.Complex64, reflect.Complex128:
		pair, ok := doc.([]any)
		if !ok || len(pair) != 2 {
			return mismatch(doc, t)
		}
		re, err := parseFloat(pair[0], t.Bits()/2)
		if err != nil {
			return err
		}
		im, err := parseFloat(pair[1], t.Bits()/2)
		if err != nil {
			return err
		}
		v.SetComplex(complex(re, im))
		return nil
	case reflect.String:
		s, err := parseString(doc)
		if err != nil {
			return err
		}
		v.SetString(s)
		return nil
	case reflect.Slice:
		if doc == nil {
			return nil
		}
		list, ok := doc.([]any)
		if !ok {
			return mismatch(doc, t)
		}
		v.Set(reflect.MakeSlice(t, len(list), len(list)))
		return decodeList(list, v, depth)
	case reflect.Array:
		list, ok := doc.([]any)
		if !ok || len(list) != v.Len() {
			return mismatch(doc, t)
		}
		return decodeList(list, v, depth)
	case reflect.Map:
		return decodeMap(doc, v, depth)
	case reflect.Pointer:
		if doc == nil {
			return nil
		}
		list, ok := doc.([]any)
		if !ok || len(list) != 1 {
			return mismatch(doc, t)
		}
		target := reflect.New(t.Elem())
		if err := decode(list[0], target.Elem(), depth+1); err != nil {
			return err
		}
		v.Set(target)
		return nil
	case reflect.Struct:
		list, ok := doc.([]any)
		if !ok || len(list) != t.NumField() {
			return mismatch(doc, t)
		}
		for i := range list {
			field := v.Field(i)
			if !field.CanSet() {
				field = reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem()
			}
			if err := decode(list[i], field, depth+1); err != nil {
				return err
			}
		}
		return nil
	case reflect.Interface:
		return decodeInterface(doc, v, depth)
	}
	return fmt.Errorf("a %s cannot cross", t)
}

func decodeList(list []any, v reflect.Value, depth int) error {
	for i, item := range list {
		if err := decode(item, v.Index(i), depth+1); err != nil {
			return err
		}
	}
	return nil
}

func decodeMap(doc any, v reflect.Value, depth int) error {
	if doc == nil {
		return nil
	}
	t := v.Type()
	list, ok := doc.([]any)
	if !ok {
		return mismatch(doc, t)
	}
	m := reflect.MakeMapWithSize(t, len(list))
	for _, item := range list {
		pair, ok := item.([]any)
		if !ok || len(pair) != 2 {
			return mismatch(item, t)
		}
		key, value := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		if err := decode(pair[0], key, depth+1); err != nil {
			return err
		}
		if err := decode(pair[1], value, depth+1); err != nil {
			return err
		}
		m.SetMapIndex(key, value)
	}
	v.Set(m)
	return nil
}

func decodeInterface(doc any, v reflect.Value, depth int) error {
	if doc == nil {
		return nil
	}
	t := v.Type()
	object, ok := doc.(map[string]any)
	if !ok {
		return mismatch(doc, t)
	}
	if t == errorType {
		message, ok := object["error"].(string)
		if !ok || len(object) != 1 {
			return mismatch(doc, t)
		}
		v.Set(reflect.ValueOf(errors.New(message)))
		return nil
	}
	name, ok := object["t"].(string)
	inner, present := object["v"]
	if !ok || !present || len(object) != 2 || t.NumMethod() != 0 {
		return mismatch(doc, t)
	}
	dynamic, err := ParseType(name)
	if err != nil {
		return err
	}
	value := reflect.New(dynamic).Elem()
	if err := decode(inner, value, depth+1); err != nil {
		return err
	}
	v.Set(value)
	return nil
}

func parseFloat(doc any, bits int) (float64, error) {
	switch x := doc.(type) {
	case json.Number:
		return strconv.ParseFloat(string(x), bits)
	case string:
		switch x {
		case "NaN":
			return math.NaN(), nil
		case "+Inf":
			return math.Inf(1), nil
		case "-Inf":
			return math.Inf(-1), nil
		}
	}
	return 0, fmt.Errorf("not a float: %.40v", doc)
}

func parseString(doc any) (string, error) {
	switch x := doc.(type) {
	case string:
		return x, nil
	case map[string]any:
		text, ok := x["x"].(string)
		if ok && len(x) == 1 {
			raw, err := hex.DecodeString(text)
			return string(raw), err
		}
	}
	return "", fmt.Errorf("not a string: %.40v", doc)
}

func mismatch(doc any, t reflect.Type) error {
	return fmt.Errorf("not a %s: %.60v", t, doc)
}

var predeclared = map[string]reflect.Type{}

func init() {
	for _, v := range []any{false, int(0), int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0), uint16(0), uint32(0), uint64(0),
		uintptr(0), float32(0), float64(0), complex64(0), complex128(0), ""} {
		predeclared[reflect.TypeOf(v).String()] = reflect.TypeOf(v)
	}
	predeclared["interface {}"] = reflect.TypeOf((*any)(nil)).Elem()
}

// ParseType: the type a name from typeName stands for.
func ParseType(name string) (reflect.Type, error) {
	t, rest, err := parseType(name, 0)
	if err == nil && rest != "" {
		err = fmt.Errorf("not a type name: %.60q", name)
	}
	return t, err
}

func parseType(s string, depth int) (reflect.Type, string, error) {
	if depth > MaxDepth {
		return nil, "", errors.New("type nested too deeply")
	}
	switch {
	case len(s) >= 2 && s[:2] == "[]":
		elem, rest, err := parseType(s[2:], depth+1)
		if err != nil {
			return nil, "", err
		}
		return reflect.SliceOf(elem), rest, nil
	case len(s) > 0 && s[0] == '[':
		end := 1
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end++
		}
		n, err := strconv.Atoi(s[1:end])
		if err != nil || end >= len(s) || s[end] != ']' || n > 1<<20 {
			return nil, "", fmt.Errorf("not a type name: %.60q", s)
		}
		elem, rest, err := parseType(s[end+1:], depth+1)
		if err != nil {
			return nil, "", err
		}
		return reflect.ArrayOf(n, elem), rest, nil
	case len(s) > 4 && s[:4] == "map[":
		key, rest, err := parseType(s[4:], depth+1)
		if err != nil || rest == "" || rest[0] != ']' || !key.Comparable() {
			return nil, "", fmt.Errorf("not a type name: %.60q", s)
		}
		elem, rest, err := parseType(rest[1:], depth+1)
		if err != nil {
			return nil, "", err
		}
		return reflect.MapOf(key, elem), rest, nil
	case len(s) > 0 && s[0] == '*':
		elem, rest, err := parseType(s[1:], depth+1)
		if err != nil {
			return nil, "", err
		}
		return reflect.PointerTo(elem), rest, nil
	}
	for name, t := range predeclared {
		if len(s) >= len(name) && s[:len(name)] == name && (len(s) == len(name) || !isWord(s[len(name)])) {
			return t, s[len(name):], nil
		}
	}
	return nil, "", fmt.Errorf("not a type name: %.60q", s)
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
