"""Call examples of Go and Java queries as native test programs, typed by each candidate's own
signature (pure: text in, text out).

Go and Java values carry their type in their source (``[]int{1, 2}``, ``new ArrayList<Integer>``),
which the examples read as Python literals do not (:mod:`execir.rerank.source_values` drops it). So
the arguments are written with the types the candidate declares (:func:`signature`, read from the
candidate's own text): a list argument of a ``[]float64`` parameter is ``[]float64{1.0, 2.0}``, of
a ``List<Double>`` parameter ``new java.util.ArrayList<Double>(java.util.Arrays.<Double>asList(1.0,
2.0))``, a dict of a ``Map<String, Integer>`` parameter a ``LinkedHashMap`` filled in order; a
value the type cannot hold (``2.5`` for an ``int``, a string for a ``[]int``), a type with no
literal here (structs, functions, channels, Java wildcards) makes the example unwritable (dropped
and counted, as in :mod:`execir.rerank.native_calls`).

The expected value is written as a generic value (Go: ``int64``, ``float64``, ``string``, ``bool``,
``nil``, ``[]interface{}``, ``map[interface{}]interface{}``; Java: ``Long``, ``Double``, ``String``,
``Boolean``, ``null``, lists and maps of them) and compared by a helper that looks at the returned
value's runtime type, the way the Python reranker's judge compares: numbers by value (an integer
result must equal an integer expectation exactly; a float result within relative 1e-6 or absolute
1e-9, ``float32``/``float`` within 1e-5 or 1e-6; an integer result is not 2.33), strings and
booleans exactly (a Go ``rune`` or Java ``char`` result equals a one-character string), sequences
(slices, arrays, lists) element by element, maps key by key. Java's ``Optional`` results compare as
their content (``Optional.empty`` as null), as HumanEval-X's Java prompts print them. A function
with several results (Go) is compared as the list of them, as Python compares a returned tuple.

* **Go**: one ``func TestExecirExamples(t *testing.T)`` in the candidate's package (the oracle's
  Go runtime compiles it with the candidate and runs it under its trusted test main); each failed
  example is a ``t.Error``.
* **Java**: a ``public class Main`` whose ``main`` calls a ``Solution`` instance (the oracle's Java
  runtime copies every value a ``Solution`` call returns into JDK classes before the helper sees
  it) and throws an ``AssertionError`` at the first failed example.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from execir.rerank.examples import CallExample
from execir.rerank.native_calls import NativeSuite, Unwritable, call_parts, number_source
from execir.types import TestSuite

TYPED_CALL_LANGUAGES = frozenset({"go", "java"})


@dataclass(frozen=True)
class Signature:
    """The declared types of a function's parameters and results (spaces removed), and for Go the
    package it is declared in."""

    params: tuple[str, ...]
    results: tuple[str, ...]
    variadic: bool = False
    """The last parameter takes any number of arguments (``...int``, ``int...``); its type is the element's."""
    package: str = "main"


def signature(program: str, language: str, name: str) -> Signature | None:
    """The signature of the last declaration of function ``name`` in ``program`` (a Go top-level
    ``func``, a Java method), or None when there is none or it has a form read here does not cover."""
    try:
        return _go_signature(program, name) if language == "go" else _java_signature(program, name) if language == "java" else None
    except Unwritable:
        return None


@lru_cache(maxsize=1024)
def typed_suite(examples: tuple[CallExample, ...], language: str, declared: Signature) -> NativeSuite | None:
    """The ``native`` suite of ``examples`` for a candidate declaring ``declared``; None when none of
    the examples can be written with its types."""
    writer = _go_check if language == "go" else _java_check
    checks: list[str] = []
    for example in examples:
        try:
            checks.append(writer(example, declared))
        except Unwritable:
            continue
    if not checks:
        return None
    code = _go_program(checks, declared.package) if language == "go" else _java_program(checks)
    return NativeSuite(TestSuite(kind="native", code=code), len(checks), len(examples) - len(checks))


def _typed_args(args: list[ast.expr], declared: Signature) -> list[tuple[ast.expr, str]]:
    """Each argument with the type of the parameter it binds to."""
    params = declared.params
    if declared.variadic:
        if len(args) < len(params) - 1:
            raise Unwritable("too few arguments")
        return [(arg, params[min(i, len(params) - 1)]) for i, arg in enumerate(args)]
    if len(args) != len(params):
        raise Unwritable("argument count")
    return list(zip(args, params))


def _constant(node: ast.expr) -> object:
    """The value of a constant or signed number node; raises for containers and anything else."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Unwritable("signed non-number")
        return -value if isinstance(node.op, ast.USub) else value
    raise Unwritable(type(node).__name__)


def _elements(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, (ast.List, ast.Tuple)):
        return list(node.elts)
    if isinstance(node, ast.Dict) and not node.keys:  # `{}` reads as an empty dict
        return []
    raise Unwritable("not a sequence")


def _pairs(node: ast.Dict) -> list[tuple[ast.expr, ast.expr]]:
    """A dict literal's entries as Python builds it: a repeated constant key keeps its last value, at
    its first position (Go and Java reject or keep duplicates that Python's literal drops)."""
    entries: dict[object, tuple[ast.expr, ast.expr]] = {}
    for key, value in zip(node.keys, node.values):
        if key is None:
            raise Unwritable("dict unpacking")
        try:
            constant = ast.literal_eval(key)
            hash(constant)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise Unwritable("a map key that is not a literal") from None
        number = isinstance(constant, (int, float)) and not isinstance(constant, bool)
        identity = ("number", constant) if number else (type(constant).__name__, constant)  # 1 and 1.0 are one key in Python
        entries[identity] = (entries[identity][0] if identity in entries else key, value)
    return list(entries.values())


@dataclass(frozen=True)
class _Spelling:
    """How a language writes an untyped value: a sequence of element sources, a map of key-value
    source pairs (None: no map literal), the constants, strings and numbers."""

    sequence: Callable[[list[str]], str]
    mapping: Callable[[list[tuple[str, str]]], str] | None
    null: str
    true: str
    false: str
    string: Callable[[str], str]
    integer: Callable[[int], str]
    real: Callable[[str], str]


def _untyped(node: ast.expr, spelling: _Spelling) -> str:
    """Source of a literal tree in ``spelling`` (raises :class:`Unwritable` for anything else)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return spelling.sequence([_untyped(element, spelling) for element in node.elts])
    if isinstance(node, ast.Dict):
        if spelling.mapping is None or any(isinstance(key, (ast.List, ast.Tuple, ast.Dict)) for key in node.keys):
            raise Unwritable("map")
        return spelling.mapping([(_untyped(key, spelling), _untyped(value, spelling)) for key, value in _pairs(node)])
    value = _constant(node)
    if value is None:
        return spelling.null
    if isinstance(value, bool):
        return spelling.true if value else spelling.false
    if isinstance(value, str):
        return spelling.string(value)
    if isinstance(value, int):
        return spelling.integer(_integer(value))
    return spelling.real(number_source(value))


def _integer(value: object, bits: int = 64) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
        raise Unwritable(repr(value))
    return value


def _split_top(text: str, separator: str = ",") -> list[str]:
    """``text`` split at ``separator`` outside brackets (``()[]{}<>``)."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, char in enumerate(text):
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def _balanced(text: str, start: int) -> int:
    """The index of the parenthesis closing the one at ``text[start]``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise Unwritable("unbalanced parentheses")


# ---- Go ------------------------------------------------------------------------------------------

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


def _go_signature(program: str, name: str) -> Signature | None:
    matches = [m for m in _GO_FUNC.finditer(program) if m.group(1) == name]
    if not matches:
        return None
    open_at = matches[-1].end() - 1
    close_at = _balanced(program, open_at)
    params, variadic = _go_params(program[open_at + 1 : close_at])
    rest = program[close_at + 1 :].lstrip()
    if rest.startswith("("):
        results = tuple(_go_params(rest[1 : _balanced(rest, 0)])[0])
    else:
        result, _ = _go_type(rest, 0)
        results = (result,) if result else ()
    package = _GO_PACKAGE.search(program)
    return Signature(tuple(params), results, variadic, package.group(1) if package else "main")


def _go_params(text: str) -> tuple[list[str], bool]:
    """Parameter types of a Go parameter list (named or not), and whether the last is variadic."""
    entries = _split_top(text)
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


def _go_check(example: CallExample, declared: Signature) -> str:
    name, args, expected = call_parts(example)
    call = f"{name}({', '.join(_go_value(arg, kind) for arg, kind in _typed_args(args, declared))})"
    if len(declared.results) > 1:
        names = ", ".join(f"r{i}" for i in range(len(declared.results)))
        got = f"func() interface{{}} {{ {names} := {call}; return []interface{{}}{{{names}}} }}()"
    elif declared.results:
        got = call
    else:
        raise Unwritable("no result")
    return f"if !execirSame({got}, {_untyped(expected, GO_EXPECTED)}) {{\n\t\tt.Error({_go_string('example failed: ' + example.call)})\n\t}}"


def _go_value(node: ast.expr, kind: str) -> str:
    """Go source of ``node`` as a value of type ``kind``."""
    if kind.startswith("[]") or re.match(r"\[\d+\]", kind):
        close = kind.index("]")
        elements = _elements(node)
        if close > 1 and int(kind[1:close]) != len(elements):
            raise Unwritable("array length")
        return kind + "{" + ", ".join(_go_value(element, kind[close + 1 :]) for element in elements) + "}"
    if kind.startswith("map["):
        key_kind, end = _go_type(kind, 4)
        value_kind = kind[end + 1 :]
        if not isinstance(node, ast.Dict):
            raise Unwritable("not a map")
        pairs = [f"{_go_value(key, key_kind)}: {_go_value(value, value_kind)}" for key, value in _pairs(node)]
        return kind + "{" + ", ".join(pairs) + "}"
    if kind in ("interface{}", "any"):
        return _untyped(node, GO_NATURAL)
    value = _constant(node)
    if kind in GO_INTS:
        if kind in ("byte", "uint8") and isinstance(value, str) and len(value) == 1 and ord(value) < 256:
            return _go_rune(value)
        number = _integer(value, _GO_BITS.get(kind, 64))
        if kind.startswith("uint") or kind == "byte":
            if number < 0:
                raise Unwritable("negative unsigned")
        return str(number)
    if kind == "rune":
        if isinstance(value, str) and len(value) == 1:
            return _go_rune(value)
        return str(_integer(value, 32))
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
    return '"' + "".join(_go_char(char, '"') for char in text) + '"'


def _go_rune(char: str) -> str:
    return "'" + _go_char(char, "'") + "'"


def _go_char(char: str, quote: str) -> str:
    if char in (quote, "\\"):
        return "\\" + char
    if 32 <= ord(char) < 127:
        return char
    if 0xD800 <= ord(char) <= 0xDFFF:
        raise Unwritable("a lone surrogate")
    return f"\\U{ord(char):08x}"


def _go_map(pairs: list[tuple[str, str]]) -> str:
    return "map[interface{}]interface{}{" + ", ".join(f"{key}: {value}" for key, value in pairs) + "}"


def _go_sequence(items: list[str]) -> str:
    return "[]interface{}{" + ", ".join(items) + "}"


GO_NATURAL = _Spelling(_go_sequence, _go_map, "nil", "true", "false", _go_string, str, lambda real: f"float64({real})")
"""An ``interface{}`` argument: each value of its own natural Go type."""
GO_EXPECTED = _Spelling(_go_sequence, _go_map, "nil", "true", "false", _go_string, lambda n: f"int64({n})", lambda real: f"float64({real})")
"""An expected value, as the generic types :data:`GO_SAME` compares."""


def _go_program(checks: list[str], package: str) -> str:
    body = "".join(f"\t{check}\n" for check in checks)
    return f'package {package}\n\nimport (\n\t"math"\n\t"reflect"\n\t"testing"\n)\n\n{GO_SAME}\nfunc TestExecirExamples(t *testing.T) {{\n{body}}}\n'


# ---- Java ----------------------------------------------------------------------------------------

_JAVA_MODIFIERS = re.compile(r"\b(?:public|private|protected|static|final|synchronized|abstract|native|strictfp|default)\b")
_JAVA_TYPE = re.compile(r"[A-Za-z_$][\w$<>\[\],.?\s]*")
"""What a method declaration's text before its name may be: the return type, modifiers removed."""
_JAVA_BOXED = {
    "int": "Integer", "long": "Long", "double": "Double", "float": "Float", "boolean": "Boolean", "char": "Character", "short": "Short", "byte": "Byte",
}
_JAVA_LISTS = ("List", "ArrayList", "Collection", "Iterable", "LinkedList", "java.util.List", "java.util.ArrayList", "java.util.Collection")
_JAVA_MAPS = ("Map", "HashMap", "LinkedHashMap", "java.util.Map", "java.util.HashMap", "java.util.LinkedHashMap")

JAVA_SAME = """    static Object execirUnwrap(Object v) {
        if (v instanceof java.util.Optional) return ((java.util.Optional<?>) v).orElse(null);
        if (v instanceof java.util.OptionalInt) {
            java.util.OptionalInt o = (java.util.OptionalInt) v;
            return o.isPresent() ? (Object) o.getAsInt() : null;
        }
        if (v instanceof java.util.OptionalLong) {
            java.util.OptionalLong o = (java.util.OptionalLong) v;
            return o.isPresent() ? (Object) o.getAsLong() : null;
        }
        if (v instanceof java.util.OptionalDouble) {
            java.util.OptionalDouble o = (java.util.OptionalDouble) v;
            return o.isPresent() ? (Object) o.getAsDouble() : null;
        }
        return v;
    }

    static boolean execirClose(double got, double expected, boolean single) {
        double rel = single ? 1e-5 : 1e-6, abs = single ? 1e-6 : 1e-9;
        return got == expected || Math.abs(got - expected) <= Math.max(rel * Math.abs(expected), abs);
    }

    static boolean execirIntegral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
    }

    static boolean execirSame(Object got, Object expected) {
        got = execirUnwrap(got);
        if (expected == null || got == null) return expected == got;
        if (expected instanceof Boolean) return expected.equals(got);
        if (expected instanceof String) {
            String e = (String) expected;
            if (got instanceof Character) return e.length() == 1 && e.charAt(0) == (Character) got;
            return got instanceof CharSequence && e.equals(got.toString());
        }
        if (expected instanceof Long || expected instanceof Double) {
            double e = ((Number) expected).doubleValue();
            if (got instanceof Double || got instanceof Float || got instanceof java.math.BigDecimal)
                return execirClose(((Number) got).doubleValue(), e, got instanceof Float);
            if (got instanceof java.math.BigInteger)
                return expected instanceof Long ? got.equals(java.math.BigInteger.valueOf((Long) expected)) : ((Number) got).doubleValue() == e;
            if (execirIntegral(got))
                return expected instanceof Long ? ((Number) got).longValue() == (Long) expected : ((Number) got).doubleValue() == e;
            return false;
        }
        if (expected instanceof java.util.List) {
            java.util.List<?> e = (java.util.List<?>) expected;
            java.util.List<Object> g = new java.util.ArrayList<>();
            if (got instanceof java.util.List) g.addAll((java.util.List<?>) got);
            else if (got.getClass().isArray()) for (int i = 0; i < java.lang.reflect.Array.getLength(got); i++) g.add(java.lang.reflect.Array.get(got, i));
            else return false;
            if (g.size() != e.size()) return false;
            for (int i = 0; i < e.size(); i++) if (!execirSame(g.get(i), e.get(i))) return false;
            return true;
        }
        if (expected instanceof java.util.Map) {
            if (!(got instanceof java.util.Map)) return false;
            java.util.Map<?, ?> e = (java.util.Map<?, ?>) expected, g = (java.util.Map<?, ?>) got;
            if (g.size() != e.size()) return false;
            for (java.util.Map.Entry<?, ?> entry : e.entrySet()) {
                boolean found = false;
                for (java.util.Map.Entry<?, ?> other : g.entrySet()) {
                    if (execirSame(other.getKey(), entry.getKey())) { found = execirSame(other.getValue(), entry.getValue()); break; }
                }
                if (!found) return false;
            }
            return true;
        }
        return false;
    }

    static java.util.List<Object> execirList(Object[] values) { return java.util.Arrays.asList(values); }

    static java.util.Map<Object, Object> execirMap(Object[] pairs) {
        java.util.Map<Object, Object> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) out.put(pairs[i], pairs[i + 1]);
        return out;
    }

    @SuppressWarnings("unchecked")
    static <K, V> java.util.LinkedHashMap<K, V> execirTyped(Object[] pairs) {
        java.util.LinkedHashMap<K, V> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) out.put((K) pairs[i], (V) pairs[i + 1]);
        return out;
    }
"""
"""The Java comparison and expected-value builders (static members of the tests' ``Main``)."""


def _java_signature(program: str, name: str) -> Signature | None:
    found: Signature | None = None
    for match in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*\(", program):
        line_start = program.rfind("\n", 0, match.start()) + 1
        head = _JAVA_MODIFIERS.sub(" ", program[line_start : match.start()])
        head = re.sub(r"^\s*<[^()]*?>\s", " ", head).strip()  # a generic method's type parameters
        if not _JAVA_TYPE.fullmatch(head) or re.search(r"\b(?:return|new|throw|else|case)\b", head):
            continue  # a call (in code or in a comment's example), not a declaration
        try:
            close_at = _balanced(program, match.end() - 1)
        except Unwritable:
            continue
        if not re.match(r"\s*(?:throws\s+[\w.,\s]+)?\{", program[close_at + 1 :]):
            continue
        params: list[str] = []
        variadic = False
        for entry in _split_top(program[match.end() : close_at]):
            entry = re.sub(r"@\w+(?:\([^)]*\))?|\bfinal\b", " ", entry).strip()
            kind = re.sub(r"\s+", "", entry.rsplit(None, 1)[0]) if " " in entry else ""
            if not kind:
                raise Unwritable(f"Java parameter {entry!r}")
            if kind.endswith("..."):
                variadic, kind = True, kind[:-3]
            params.append(kind)
        found = Signature(tuple(params), (re.sub(r"\s+", "", head),), variadic)
    return found


def _java_check(example: CallExample, declared: Signature) -> str:
    name, args, expected = call_parts(example)
    if declared.results == ("void",):
        raise Unwritable("no result")
    call = f"s.{name}({', '.join(_java_value(arg, kind) for arg, kind in _typed_args(args, declared))})"
    return f"if (!execirSame({call}, {_untyped(expected, JAVA_EXPECTED)})) throw new AssertionError({_java_string('example failed: ' + example.call)});"


def _java_generic(kind: str) -> tuple[str, list[str]]:
    """``List<Integer>`` -> ("List", ["Integer"]); a type with no arguments -> (kind, [])."""
    if "<" not in kind:
        return kind, []
    if not kind.endswith(">"):
        raise Unwritable(f"Java type {kind}")
    return kind[: kind.index("<")], _split_top(kind[kind.index("<") + 1 : -1])


def _java_value(node: ast.expr, kind: str) -> str:
    """Java source of ``node`` as a value of type ``kind``."""
    if kind.endswith("[]"):
        element = kind[:-2]
        return f"new {kind}{{" + ", ".join(_java_value(item, element) for item in _elements(node)) + "}"
    base, arguments = _java_generic(kind)
    if base in _JAVA_LISTS:
        if len(arguments) != 1 or "?" in arguments[0]:
            raise Unwritable(f"Java type {kind}")
        element = arguments[0]
        items = [_java_value(item, element) for item in _elements(node)]
        if not items:
            return f"new java.util.ArrayList<{element}>()"
        return f"new java.util.ArrayList<{element}>(java.util.Arrays.<{element}>asList({', '.join(items)}))"
    if base in _JAVA_MAPS and len(arguments) == 2 and "?" not in kind and isinstance(node, ast.Dict):
        key_kind, value_kind = arguments
        pairs = [f"{_java_value(key, key_kind)}, {_java_value(value, value_kind)}" for key, value in _pairs(node)]
        return f"Main.<{key_kind}, {value_kind}>execirTyped(new Object[]{{{', '.join(pairs)}}})"
    if arguments:
        raise Unwritable(f"Java type {kind}")
    if kind == "Object":
        return _untyped(node, JAVA_NATURAL)
    value = _constant(node)
    boxed = _JAVA_BOXED.get(kind, kind)
    if boxed in ("Integer", "Short", "Byte"):
        number = _integer(value, {"Integer": 32, "Short": 16, "Byte": 8}[boxed])
        return str(number) if boxed == "Integer" else f"({kind}) {number}"
    if boxed == "Long":
        return f"{_integer(value)}L"
    if boxed in ("Double", "Float"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Unwritable(repr(value))
        return number_source(float(value)) + ("f" if boxed == "Float" else "")
    if boxed == "Boolean" and isinstance(value, bool):
        return "true" if value else "false"
    if boxed == "Character" and isinstance(value, str) and len(value) == 1 and ord(value) < 0x10000:
        return "'" + _java_chars(value, "'") + "'"
    if kind in ("String", "CharSequence") and isinstance(value, str):
        return _java_string(value)
    raise Unwritable(f"{value!r} as {kind}")


def _java_string(text: str) -> str:
    return '"' + _java_chars(text, '"') + '"'


def _java_chars(text: str, quote: str) -> str:
    """``text`` escaped for a Java literal: printable ASCII as is, everything else as UTF-16 ``\\uXXXX``
    units (a backslash-u escape is read before lexing, so ``\\u000a`` stays out: ``\\n``)."""
    out = []
    for char in text:
        if char in (quote, "\\"):
            out.append("\\" + char)
        elif 32 <= ord(char) < 127:
            out.append(char)
        elif 0xD800 <= ord(char) <= 0xDFFF:
            raise Unwritable("a lone surrogate")
        else:
            units = char.encode("utf-16-be")
            for k in range(0, len(units), 2):
                unit = int.from_bytes(units[k : k + 2], "big")
                out.append({0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x08: "\\b", 0x0C: "\\f"}.get(unit, f"\\u{unit:04x}"))
    return "".join(out)


def _java_natural_list(items: list[str]) -> str:
    return "new java.util.ArrayList<Object>(java.util.Arrays.<Object>asList(" + ", ".join(f"(Object) {item}" for item in items) + "))"


def _java_int(number: int) -> str:
    return str(_integer(number, 32))


JAVA_NATURAL = _Spelling(_java_natural_list, None, "null", "true", "false", _java_string, _java_int, str)
"""An ``Object`` argument: each value of its own natural class (``Integer``, ``Double``, ``ArrayList``)."""
JAVA_EXPECTED = _Spelling(
    lambda items: "execirList(new Object[]{" + ", ".join(items) + "})",
    lambda pairs: "execirMap(new Object[]{" + ", ".join(f"{key}, {value}" for key, value in pairs) + "})",
    "null", "Boolean.TRUE", "Boolean.FALSE", _java_string, lambda n: f"Long.valueOf({n}L)", lambda real: f"Double.valueOf({real})",
)
"""An expected value, as the generic classes :data:`JAVA_SAME` compares."""


def _java_program(checks: list[str]) -> str:
    body = "".join(f"        {check}\n" for check in checks)
    main = "    public static void main(String[] args) throws Exception {\n        Solution s = new Solution();\n"
    return f"public class Main {{\n{JAVA_SAME}\n{main}{body}    }}\n}}\n"
