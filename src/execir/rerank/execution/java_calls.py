"""Java call examples as a native test class, typed by the candidate's signature (pure); see
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
    sequence_items,
    split_top,
    typed_args,
    untyped,
)

_JAVA_MODIFIERS = re.compile(r"\b(?:public|private|protected|static|final|synchronized|abstract|native|strictfp|default)\b")
_JAVA_TYPE = re.compile(r"[A-Za-z_$][\w$<>\[\],.?\s]*")
"""What a method declaration's text before its name may be: the return type, modifiers removed."""
_JAVA_BOXED = {
    "int": "Integer",
    "long": "Long",
    "double": "Double",
    "float": "Float",
    "boolean": "Boolean",
    "char": "Character",
    "short": "Short",
    "byte": "Byte",
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


def java_signature(program: str, name: str) -> Signature | None:
    found: Signature | None = None
    for match in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*\(", program):
        line_start = program.rfind("\n", 0, match.start()) + 1
        head = _JAVA_MODIFIERS.sub(" ", program[line_start : match.start()])
        head = re.sub(r"^\s*<[^()]*?>\s", " ", head).strip()  # a generic method's type parameters
        if not _JAVA_TYPE.fullmatch(head) or re.search(r"\b(?:return|new|throw|else|case)\b", head):
            continue  # a call (in code or in a comment's example), not a declaration
        try:
            close_at = balanced(program, match.end() - 1)
        except Unwritable:
            continue
        if not re.match(r"\s*(?:throws\s+[\w.,\s]+)?\{", program[close_at + 1 :]):
            continue
        params: list[str] = []
        variadic = False
        for entry in split_top(program[match.end() : close_at]):
            entry = re.sub(r"@\w+(?:\([^)]*\))?|\bfinal\b", " ", entry).strip()
            kind = re.sub(r"\s+", "", entry.rsplit(None, 1)[0]) if " " in entry else ""
            if not kind:
                raise Unwritable(f"Java parameter {entry!r}")
            if kind.endswith("..."):
                variadic, kind = True, kind[:-3]
            params.append(kind)
        found = Signature(tuple(params), (re.sub(r"\s+", "", head),), variadic)
    return found


def java_call(example: CallExample, declared: Signature) -> str:
    """The example's call on the ``Solution`` instance ``s`` as Java source, its arguments typed by ``declared``."""
    name, args, _ = call_parts(example)
    if declared.results == ("void",):
        raise Unwritable("no result")
    return f"s.{name}({', '.join(_java_value(arg, kind) for arg, kind in typed_args(args, declared))})"


def java_check(example: CallExample, declared: Signature) -> str:
    _, _, expected = call_parts(example)
    call = java_call(example, declared)
    return f"if (!execirSame({call}, {untyped(expected, JAVA_EXPECTED)})) throw new AssertionError({_java_string('example failed: ' + example.call)});"


def _java_generic(kind: str) -> tuple[str, list[str]]:
    """``List<Integer>`` -> ("List", ["Integer"]); a type with no arguments -> (kind, [])."""
    if "<" not in kind:
        return kind, []
    if not kind.endswith(">"):
        raise Unwritable(f"Java type {kind}")
    return kind[: kind.index("<")], split_top(kind[kind.index("<") + 1 : -1])


def _java_value(node: ast.expr, kind: str) -> str:
    """Java source of ``node`` as a value of type ``kind``."""
    if kind.endswith("[]"):
        element = kind[:-2]
        return f"new {kind}{{" + ", ".join(_java_value(item, element) for item in sequence_items(node)) + "}"
    base, arguments = _java_generic(kind)
    if base in _JAVA_LISTS:
        if len(arguments) != 1 or "?" in arguments[0]:
            raise Unwritable(f"Java type {kind}")
        element = arguments[0]
        items = [_java_value(item, element) for item in sequence_items(node)]
        if not items:
            return f"new java.util.ArrayList<{element}>()"
        return f"new java.util.ArrayList<{element}>(java.util.Arrays.<{element}>asList({', '.join(items)}))"
    if base in _JAVA_MAPS and len(arguments) == 2 and "?" not in kind and isinstance(node, ast.Dict):
        key_kind, value_kind = arguments
        pairs = [f"{_java_value(key, key_kind)}, {_java_value(value, value_kind)}" for key, value in dict_entries(node)]
        return f"Main.<{key_kind}, {value_kind}>execirTyped(new Object[]{{{', '.join(pairs)}}})"
    if arguments:
        raise Unwritable(f"Java type {kind}")
    if kind == "Object":
        return untyped(node, JAVA_NATURAL)
    value = literal_value(node)
    boxed = _JAVA_BOXED.get(kind, kind)
    if boxed in ("Integer", "Short", "Byte"):
        number = checked_int(value, {"Integer": 32, "Short": 16, "Byte": 8}[boxed])
        return str(number) if boxed == "Integer" else f"({kind}) {number}"
    if boxed == "Long":
        return f"{checked_int(value)}L"
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
    return str(checked_int(number, 32))


JAVA_NATURAL = Spelling(_java_natural_list, None, "null", "true", "false", _java_string, _java_int, str)
"""An ``Object`` argument: each value of its own natural class (``Integer``, ``Double``, ``ArrayList``)."""
JAVA_EXPECTED = Spelling(
    lambda items: "execirList(new Object[]{" + ", ".join(items) + "})",
    lambda pairs: "execirMap(new Object[]{" + ", ".join(f"{key}, {value}" for key, value in pairs) + "})",
    "null",
    "Boolean.TRUE",
    "Boolean.FALSE",
    _java_string,
    lambda n: f"Long.valueOf({n}L)",
    lambda real: f"Double.valueOf({real})",
)
"""An expected value, as the generic classes :data:`JAVA_SAME` compares."""


def java_program(checks: list[str]) -> str:
    body = "".join(f"        {check}\n" for check in checks)
    main = "    public static void main(String[] args) throws Exception {\n        Solution s = new Solution();\n"
    return f"public class Main {{\n{JAVA_SAME}\n{main}{body}    }}\n}}\n"
