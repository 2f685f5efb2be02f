"""Go call examples as a native test file, typed by the candidate's signature (pure); see
:mod:`execir.rerank.execution.typed_calls` for what is written and how results compare."""

from __future__ import annotations

import ast
import re

from execir.rerank.execution.examples import CallExample
from execir.rerank.execution.native_calls import Unwritable, call_parts, number_source
from execir.rerank.execution.typed_values import (
    Signature,
    Spelling,
    balanced,
    checked_int,
    dict_entries,
    literal_value,
    quoted,
    sequence_items,
    split_top,
    typed_args,
    untyped,
)

GO_INTS = frozenset({"int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte"})
GO_FLOATS = frozenset({"float32", "float64"})
_GO_BITS = {"int8": 8, "int16": 16, "int32": 32, "uint8": 9, "byte": 9, "uint16": 17, "uint32": 33}
_GO_FUNC = re.compile(r"^func\s+(\w+)\s*\(", re.MULTILINE)
_GO_PACKAGE = re.compile(r"^\s*package\s+(\w+)", re.MULTILINE)
_GO_NAME = re.compile(r"^[A-Za-z_]\w*$")

GO_SAME = """func execirClose(got, expected float64, single bool) bool {
	rel, abs := 1e-6, 1e-9
	if single {
		rel, abs = 1e-5, 1e-6
	}
	return got == expected || math.Abs(got-expected) <= math.Max(rel*math.Abs(expected), abs)
}

func execirSame(got interface{}, expected interface{}) bool {
	g := reflect.ValueOf(got)
	if expected == nil {
		if got == nil {
			return true
		}
		switch g.Kind() {
		case reflect.Ptr, reflect.Interface, reflect.Map, reflect.Slice:
			return g.IsNil()
		}
		return false
	}
	if got == nil {
		return false
	}
	switch e := expected.(type) {
	case bool:
		return g.Kind() == reflect.Bool && g.Bool() == e
	case string:
		if g.Kind() == reflect.Int32 {
			r := []rune(e)
			return len(r) == 1 && rune(g.Int()) == r[0]
		}
		return g.Kind() == reflect.String && g.String() == e
	case int64:
		switch g.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return g.Int() == e
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return e >= 0 && g.Uint() == uint64(e)
		case reflect.Float32, reflect.Float64:
			return execirClose(g.Float(), float64(e), g.Kind() == reflect.Float32)
		}
		return false
	case float64:
		switch g.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return float64(g.Int()) == e
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return float64(g.Uint()) == e
		case reflect.Float32, reflect.Float64:
			return execirClose(g.Float(), e, g.Kind() == reflect.Float32)
		}
		return false
	case []interface{}:
		if (g.Kind() != reflect.Slice && g.Kind() != reflect.Array) || g.Len() != len(e) {
			return false
		}
		for i := range e {
			if !execirSame(g.Index(i).Interface(), e[i]) {
				return false
			}
		}
		return true
	case map[interface{}]interface{}:
		if g.Kind() != reflect.Map || g.Len() != len(e) {
			return false
		}
		for ek, ev := range e {
			found := false
			for _, gk := range g.MapKeys() {
				if execirSame(gk.Interface(), ek) {
					found = execirSame(g.MapIndex(gk).Interface(), ev)
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return false
}
"""
"""The Go comparison (in the tests' file, beside the candidate's package)."""


def go_signature(program: str, name: str) -> Signature | None:
    matches = [m for m in _GO_FUNC.finditer(program) if m.group(1) == name]
    if not matches:
        return None
    open_at = matches[-1].end() - 1
    close_at = balanced(program, open_at)
    params, variadic = _go_params(program[open_at + 1 : close_at])
    rest = program[close_at + 1 :].lstrip()
    if rest.startswith("("):
        results = tuple(_go_params(rest[1 : balanced(rest, 0)])[0])
    else:
        result, _ = _go_type(rest, 0)
        results = (result,) if result else ()
    package = _GO_PACKAGE.search(program)
    return Signature(tuple(params), results, variadic, package.group(1) if package else "main")


def _go_params(text: str) -> tuple[list[str], bool]:
    """Parameter types of a Go parameter list (named or not), and whether the last is variadic."""
    entries = split_top(text)
    named = any(" " in entry.strip() and _GO_NAME.match(entry.split(None, 1)[0]) and not entry.startswith(("map[", "func", "chan")) for entry in entries)
    types: list[str] = []
    if named:
        pending = 0
        for entry in entries:
            parts = entry.split(None, 1)
            if len(parts) == 1:
                pending += 1
                continue
            kind = _go_type_text(parts[1])
            types += [kind] * (pending + 1)
            pending = 0
        if pending:
            raise Unwritable("parameter without a type")
    else:
        types = [_go_type_text(entry) for entry in entries]
    variadic = bool(types) and types[-1].startswith("...")
    if variadic:
        types[-1] = types[-1][3:]
    return types, variadic


def _go_type_text(text: str) -> str:
    variadic = text.startswith("...")
    kind, end = _go_type(text, 3 if variadic else 0)
    if not kind or text[end:].strip():
        raise Unwritable(f"Go type {text!r}")
    return ("..." if variadic else "") + kind


def _go_type(text: str, i: int) -> tuple[str, int]:
    """The Go type starting at ``text[i]`` (spaces removed) and the index after it; ("", i) when none."""
    while i < len(text) and text[i] in " \t":
        i += 1
    if text.startswith("[", i):
        close = text.find("]", i)
        if close < 0:
            return "", i
        element, end = _go_type(text, close + 1)
        return (text[i : close + 1].replace(" ", "") + element, end) if element else ("", i)
    if text.startswith("map[", i):
        key, end = _go_type(text, i + 4)
        if not key or not text.startswith("]", end):
            return "", i
        value, end = _go_type(text, end + 1)
        return (f"map[{key}]{value}", end) if value else ("", i)
    if match := re.compile(r"interface\s*\{\s*\}").match(text, i):
        return "interface{}", match.end()
    if match := re.compile(r"\*?[A-Za-z_][\w.]*").match(text, i):
        word = match.group(0)
        if word in ("func", "chan", "struct", "interface"):
            raise Unwritable(f"Go type {word}")
        return word, match.end()
    return "", i


def go_call(example: CallExample, declared: Signature) -> str:
    """The example's call as Go source, its arguments typed by ``declared``."""
    name, args, _ = call_parts(example)
    return f"{name}({', '.join(_go_value(arg, kind) for arg, kind in typed_args(args, declared))})"


def go_check(example: CallExample, declared: Signature) -> str:
    _, _, expected = call_parts(example)
    call = go_call(example, declared)
    if len(declared.results) > 1:
        names = ", ".join(f"r{i}" for i in range(len(declared.results)))
        got = f"func() interface{{}} {{ {names} := {call}; return []interface{{}}{{{names}}} }}()"
    elif declared.results:
        got = call
    else:
        raise Unwritable("no result")
    return f"if !execirSame({got}, {untyped(expected, GO_EXPECTED)}) {{\n\t\tt.Error({_go_string('example failed: ' + example.call)})\n\t}}"


def _go_value(node: ast.expr, kind: str) -> str:
    """Go source of ``node`` as a value of type ``kind``."""
    if kind.startswith("[]") or re.match(r"\[\d+\]", kind):
        close = kind.index("]")
        elements = sequence_items(node)
        if close > 1 and int(kind[1:close]) != len(elements):
            raise Unwritable("array length")
        return kind + "{" + ", ".join(_go_value(element, kind[close + 1 :]) for element in elements) + "}"
    if kind.startswith("map["):
        key_kind, end = _go_type(kind, 4)
        value_kind = kind[end + 1 :]
        if not isinstance(node, ast.Dict):
            raise Unwritable("not a map")
        pairs = [f"{_go_value(key, key_kind)}: {_go_value(value, value_kind)}" for key, value in dict_entries(node)]
        return kind + "{" + ", ".join(pairs) + "}"
    if kind in ("interface{}", "any"):
        return untyped(node, GO_NATURAL)
    value = literal_value(node)
    if kind in GO_INTS:
        if kind in ("byte", "uint8") and isinstance(value, str) and len(value) == 1 and ord(value) < 256:
            return _go_rune(value)
        number = checked_int(value, _GO_BITS.get(kind, 64))
        if kind.startswith("uint") or kind == "byte":
            if number < 0:
                raise Unwritable("negative unsigned")
        return str(number)
    if kind == "rune":
        if isinstance(value, str) and len(value) == 1:
            return _go_rune(value)
        return str(checked_int(value, 32))
    if kind in GO_FLOATS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Unwritable(repr(value))
        return number_source(float(value))
    if kind == "string" and isinstance(value, str):
        return _go_string(value)
    if kind == "bool" and isinstance(value, bool):
        return "true" if value else "false"
    raise Unwritable(f"{value!r} as {kind}")


def _go_string(text: str) -> str:
    return quoted(text, '"', lambda point: f"\\U{point:08x}")


def _go_rune(char: str) -> str:
    return quoted(char, "'", lambda point: f"\\U{point:08x}")


def _go_map(pairs: list[tuple[str, str]]) -> str:
    return "map[interface{}]interface{}{" + ", ".join(f"{key}: {value}" for key, value in pairs) + "}"


def _go_sequence(items: list[str]) -> str:
    return "[]interface{}{" + ", ".join(items) + "}"


GO_NATURAL = Spelling(_go_sequence, _go_map, "nil", "true", "false", _go_string, str, lambda real: f"float64({real})")
"""An ``interface{}`` argument: each value of its own natural Go type."""
GO_EXPECTED = Spelling(_go_sequence, _go_map, "nil", "true", "false", _go_string, lambda n: f"int64({n})", lambda real: f"float64({real})")
"""An expected value, as the generic types :data:`GO_SAME` compares."""


def go_program(checks: list[str], package: str) -> str:
    body = "".join(f"\t{check}\n" for check in checks)
    return f'package {package}\n\nimport (\n\t"math"\n\t"reflect"\n\t"testing"\n)\n\n{GO_SAME}\nfunc TestExecirExamples(t *testing.T) {{\n{body}}}\n'
