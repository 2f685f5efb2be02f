"""Rust call examples as native tests, typed by the candidate's signature (pure: text in, text out).

Rust examples read as Python values (:mod:`execir.rerank.execution.rust_doctests` drops their types),
so each argument is written with the type the candidate declares for its parameter (its signature
read by :func:`execir.execute.runtimes.rust_source.signature`): integers with their type's suffix
and range checked (``5i32``; no negative ``usize``), floats as ``2.5f64``, ``char`` from a
one-letter string, ``&str`` as a string literal, ``String`` as ``String::from("..")``, ``Vec<T>``
as ``vec![..]``, ``[T; N]`` and ``&[T]`` as arrays, ``Option<T>`` as ``None`` or ``Some(..)``,
tuples, ``HashMap``/``BTreeMap`` from a dict and ``HashSet``/``BTreeSet`` from a list (``from([..])``);
a reference parameter (``&Vec<String>``, ``&mut Vec<i32>``) gets ``&`` or ``&mut`` before the
value. A value the type cannot hold, a type with no literal here (generics, ``dyn``/``impl``
traits, ``Box``, a type of the program's own), or a result type :data:`VALUE_HELPER` cannot read
makes the example unwritable (dropped and counted, as for Go and Java).

The result is read into a generic value (``ExecirV``: integer, float, bool, string, list, map or
none) through the ``ExecirValue`` trait of :data:`VALUE_HELPER`, implemented for the standard types
(a ``char`` is a one-letter string, an ``Option`` its content or none, a tuple, array, slice or
``Vec`` a list, a map its entries), and compared with the expected value written as such a value,
as Go's and Java's are: integers exactly, a float within relative 1e-6 or absolute 1e-9 (an
``f32`` within 1e-5 or 1e-6), an integer result equal to a float expectation only exactly, lists
element by element, maps key by key.

The checks are one ``#[test]`` function in a ``#[cfg(test)] mod tests { use super::*; .. }``, the
shape of HumanEval-X's Rust tests, which the oracle's Rust runtime compiles with the program (the
same crates, ``unsafe`` forbidden) and runs under its trusted runner; a failed example panics. The
probe program (:func:`rust_probe_program`) prints each probe's canonical text (integers exactly,
floats to 6 significant digits, strings quoted, map entries sorted; a panic, caught, as ``raised``)
on a line marked for the oracle (see :mod:`execir.rerank.execution.native_probes`).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass

from execir.execute.decide import PROBE_MARK
from execir.execute.runtimes import rust_source
from execir.rerank.execution.examples import CallExample
from execir.rerank.execution.native_calls import Unwritable, call_parts, number_source
from execir.rerank.execution.typed_values import Signature, Spelling, checked_int, dict_entries, literal_value, quoted, sequence_items, typed_args, untyped

_INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "i128": 128, "isize": 64, "u8": 9, "u16": 17, "u32": 33, "u64": 65, "u128": 129, "usize": 65}
"""Bits of each integer type's range as :func:`checked_int` checks it (unsigned: one more, then not negative)."""
_FLOATS = frozenset({"f32", "f64"})
_MAPS = {"HashMap": "::std::collections::HashMap", "BTreeMap": "::std::collections::BTreeMap"}
_SETS = {"HashSet": "::std::collections::HashSet", "BTreeSet": "::std::collections::BTreeSet"}
_TOKEN = re.compile(r"'\w+|\w+|::|->|[&<>(),\[\];]|\S")


# ---- types -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RustType:
    """A parsed Rust type: ``kind`` is ``ref`` (``items``: the referenced type; ``mutable``),
    ``path`` (``name`` the last segment, ``items`` its type arguments), ``tuple``, ``array``
    (``length``) or ``slice``."""

    kind: str
    name: str = ""
    items: tuple[RustType, ...] = ()
    mutable: bool = False
    length: int = 0


def parse_type(text: str) -> RustType:
    """The :class:`RustType` of ``text`` (raises :class:`Unwritable` for what is not read here)."""
    tokens = [t for t in _TOKEN.findall(text) if not t.startswith("'")]
    found, end = _type(tokens, 0)
    if end != len(tokens):
        raise Unwritable(f"Rust type {text!r}")
    return found


def _type(tokens: list[str], i: int) -> tuple[RustType, int]:
    if i >= len(tokens):
        raise Unwritable("a Rust type ends early")
    token = tokens[i]
    if token == "&":
        mutable = i + 1 < len(tokens) and tokens[i + 1] == "mut"
        inner, end = _type(tokens, i + 2 if mutable else i + 1)
        return RustType("ref", items=(inner,), mutable=mutable), end
    if token == "(":
        items, end = _list(tokens, i + 1, ")")
        return RustType("tuple", items=tuple(items)), end
    if token == "[":
        inner, end = _type(tokens, i + 1)
        if end < len(tokens) and tokens[end] == "]":
            return RustType("slice", items=(inner,)), end + 1
        if end + 2 < len(tokens) and tokens[end] == ";" and tokens[end + 1].isdigit() and tokens[end + 2] == "]":
            return RustType("array", items=(inner,), length=int(tokens[end + 1])), end + 3
        raise Unwritable("a Rust array type")
    if not re.fullmatch(r"[A-Za-z_]\w*", token) or token in ("dyn", "impl", "fn", "mut", "Box", "Self"):
        raise Unwritable(f"Rust type {token}")
    name, end = token, i + 1
    while end + 1 < len(tokens) and tokens[end] == "::" and re.fullmatch(r"[A-Za-z_]\w*", tokens[end + 1]):
        name, end = tokens[end + 1], end + 2
    if end < len(tokens) and tokens[end] == "<":
        items, end = _list(tokens, end + 1, ">")
        return RustType("path", name, tuple(items)), end
    return RustType("path", name), end


def _list(tokens: list[str], i: int, closer: str) -> tuple[list[RustType], int]:
    items: list[RustType] = []
    while i < len(tokens) and tokens[i] != closer:
        item, i = _type(tokens, i)
        items.append(item)
        if i < len(tokens) and tokens[i] == ",":
            i += 1
        elif i >= len(tokens) or tokens[i] != closer:
            raise Unwritable("a Rust type list")
    if i >= len(tokens):
        raise Unwritable("a Rust type list ends early")
    return items, i + 1


def readable(kind: RustType) -> bool:
    """Whether :data:`VALUE_HELPER` reads a result of type ``kind``."""
    if kind.kind in ("ref", "slice", "array", "tuple"):
        return (kind.kind != "tuple" or 0 < len(kind.items) <= 6) and all(readable(item) for item in kind.items)
    simple = kind.name in _INT_BITS or kind.name in _FLOATS or kind.name in ("bool", "char", "String", "str")
    if simple:
        return not kind.items
    arity = {"Vec": 1, "Option": 1, "HashMap": 2, "BTreeMap": 2}.get(kind.name)
    return arity == len(kind.items) and all(readable(item) for item in kind.items)


# ---- signatures and calls --------------------------------------------------------------------


def rust_signature(program: str, name: str) -> Signature | None:
    """The declared parameter and result types of the top-level function ``name`` (None: none, or
    a declaration the runtime's reader does not read); types keep Rust's spacing (``&mut Vec<i32>``)."""
    found = rust_source.signature(program, name)
    if found is None:
        return None
    if found.generics:
        generic = tuple(f"<{found.generics}>" for _ in found.params)  # declared, but no literal has a generic type
        return Signature(generic, (found.returns,) if found.returns else ())
    return Signature(tuple(kind for _, kind in found.params), (found.returns,) if found.returns else ())


def rust_call(example: CallExample, declared: Signature) -> str:
    """The example's call as Rust source, its arguments typed by ``declared``."""
    name, args, _ = call_parts(example)
    return f"{name}({', '.join(rust_value(arg, parse_type(kind)) for arg, kind in typed_args(args, declared))})"


def rust_check(example: CallExample, declared: Signature) -> str:
    _, _, expected = call_parts(example)
    if not declared.results or not readable(parse_type(declared.results[0])):
        raise Unwritable("a result this cannot read")
    call = rust_call(example, declared)
    message = rust_string("example failed: " + example.call)
    return f'if !execir_same(&ExecirValue::execir_value(&{call}), &{untyped(expected, RUST_EXPECTED)}) {{ panic!("{{}}", {message}); }}'


def rust_probe_call(example: CallExample, declared: Signature) -> str:
    """A probe call: the example's call, its result read as a generic value (see :func:`rust_probe_program`)."""
    if not declared.results or not readable(parse_type(declared.results[0])):
        raise Unwritable("a result this cannot read")
    return rust_call(example, declared)


def rust_value(node: ast.expr, kind: RustType) -> str:
    """Rust source of ``node`` as a value of type ``kind``."""
    if kind.kind == "ref":
        inner = kind.items[0]
        prefix = "&mut " if kind.mutable else "&"
        if inner.kind == "path" and inner.name == "str":
            if kind.mutable:
                raise Unwritable("&mut str")
            return rust_string(_text(node))
        if inner.kind == "slice":
            return prefix + "[" + ", ".join(rust_value(item, inner.items[0]) for item in _items(node)) + "]"
        return prefix + rust_value(node, inner)
    if kind.kind == "tuple":
        items = _items(node)
        if len(items) != len(kind.items) or not items:
            raise Unwritable("tuple length")
        written = [rust_value(item, item_kind) for item, item_kind in zip(items, kind.items)]
        return "(" + ", ".join(written) + ("," if len(written) == 1 else "") + ")"
    if kind.kind == "array":
        items = _items(node)
        if len(items) != kind.length:
            raise Unwritable("array length")
        return "[" + ", ".join(rust_value(item, kind.items[0]) for item in items) + "]"
    if kind.kind == "slice":
        raise Unwritable("an unsized slice")
    return _path_value(node, kind)


def _path_value(node: ast.expr, kind: RustType) -> str:
    name, items = kind.name, kind.items
    if name == "Vec" and len(items) == 1:
        return "vec![" + ", ".join(rust_value(item, items[0]) for item in _items(node)) + "]"
    if name == "Option" and len(items) == 1:
        if isinstance(node, ast.Constant) and node.value is None:
            return "None"
        return f"Some({rust_value(node, items[0])})"
    if name in _MAPS and len(items) == 2:
        if not isinstance(node, ast.Dict):
            raise Unwritable("not a map")
        pairs = [f"({rust_value(key, items[0])}, {rust_value(value, items[1])})" for key, value in dict_entries(node)]
        return f"{_MAPS[name]}::from([{', '.join(pairs)}])"
    if name in _SETS and len(items) == 1:
        return f"{_SETS[name]}::from([{', '.join(rust_value(item, items[0]) for item in _items(node))}])"
    if items:
        raise Unwritable(f"Rust type {name}<..>")
    value = literal_value(node)
    if name in _INT_BITS:
        if name == "u8" and isinstance(value, str) and len(value) == 1 and ord(value) < 128:
            return "b" + _char(value)
        number = checked_int(value, _INT_BITS[name])
        if name.startswith("u") and number < 0:
            raise Unwritable("negative unsigned")
        return f"{number}{name}"
    if name in _FLOATS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Unwritable(repr(value))
        return number_source(float(value)) + name
    if name == "bool" and isinstance(value, bool):
        return "true" if value else "false"
    if name == "char" and isinstance(value, str) and len(value) == 1:
        return _char(value)
    if name == "String" and isinstance(value, str):
        return f"String::from({rust_string(value)})"
    raise Unwritable(f"{value!r} as {name}")


def _items(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.Set) else sequence_items(node)


def _text(node: ast.expr) -> str:
    value = literal_value(node)
    if not isinstance(value, str):
        raise Unwritable("not a string")
    return value


def rust_string(text: str) -> str:
    return quoted(text, '"', lambda point: f"\\u{{{point:x}}}")


def _char(char: str) -> str:
    return quoted(char, "'", lambda point: f"\\u{{{point:x}}}")


def _sequence(items: list[str]) -> str:
    return "ExecirV::L(vec![" + ", ".join(items) + "])"


def _mapping(pairs: list[tuple[str, str]]) -> str:
    return "ExecirV::M(vec![" + ", ".join(f"({key}, {value})" for key, value in pairs) + "])"


RUST_EXPECTED = Spelling(
    _sequence,
    _mapping,
    "ExecirV::N",
    "ExecirV::B(true)",
    "ExecirV::B(false)",
    lambda text: f"ExecirV::S(String::from({rust_string(text)}))",
    lambda n: f"ExecirV::I({n})",
    lambda real: f"ExecirV::F({real}, false)",
)
"""An expected value, as the generic ``ExecirV`` :data:`VALUE_HELPER` compares."""


# ---- programs --------------------------------------------------------------------------------

_INTS = "".join(
    f"    impl ExecirValue for {name} {{ fn execir_value(&self) -> ExecirV {{ ExecirV::I(*self as i128) }} }}\n"
    for name in ("i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "usize")
)
_TUPLES = "".join(
    "    impl<{}> ExecirValue for ({},) {{ fn execir_value(&self) -> ExecirV {{ ExecirV::L(vec![{}]) }} }}\n".format(
        ", ".join(f"T{i}: ExecirValue" for i in range(n)),
        ", ".join(f"T{i}" for i in range(n)),
        ", ".join(f"self.{i}.execir_value()" for i in range(n)),
    )
    for n in range(1, 7)
)
VALUE_HELPER = (
    """    #[derive(Debug, Clone)]
    pub enum ExecirV { I(i128), F(f64, bool), B(bool), S(String), L(Vec<ExecirV>), M(Vec<(ExecirV, ExecirV)>), N }
    pub trait ExecirValue { fn execir_value(&self) -> ExecirV; }
"""
    + _INTS
    + _TUPLES
    + """    impl ExecirValue for u128 {
        fn execir_value(&self) -> ExecirV { i128::try_from(*self).map(ExecirV::I).unwrap_or(ExecirV::F(*self as f64, false)) }
    }
    impl ExecirValue for f32 { fn execir_value(&self) -> ExecirV { ExecirV::F(*self as f64, true) } }
    impl ExecirValue for f64 { fn execir_value(&self) -> ExecirV { ExecirV::F(*self, false) } }
    impl ExecirValue for bool { fn execir_value(&self) -> ExecirV { ExecirV::B(*self) } }
    impl ExecirValue for char { fn execir_value(&self) -> ExecirV { ExecirV::S(self.to_string()) } }
    impl ExecirValue for str { fn execir_value(&self) -> ExecirV { ExecirV::S(self.to_string()) } }
    impl ExecirValue for String { fn execir_value(&self) -> ExecirV { ExecirV::S(self.clone()) } }
    impl<T: ExecirValue + ?Sized> ExecirValue for &T { fn execir_value(&self) -> ExecirV { (**self).execir_value() } }
    impl<T: ExecirValue + ?Sized> ExecirValue for &mut T { fn execir_value(&self) -> ExecirV { (**self).execir_value() } }
    fn execir_list<T: ExecirValue>(items: &[T]) -> ExecirV { ExecirV::L(items.iter().map(|v| v.execir_value()).collect()) }
    impl<T: ExecirValue> ExecirValue for [T] { fn execir_value(&self) -> ExecirV { execir_list(self) } }
    impl<T: ExecirValue, const N: usize> ExecirValue for [T; N] { fn execir_value(&self) -> ExecirV { execir_list(self) } }
    impl<T: ExecirValue> ExecirValue for Vec<T> { fn execir_value(&self) -> ExecirV { execir_list(self) } }
    impl<T: ExecirValue> ExecirValue for Option<T> {
        fn execir_value(&self) -> ExecirV { match self { Some(v) => v.execir_value(), None => ExecirV::N } }
    }
    impl<K: ExecirValue, V: ExecirValue, S> ExecirValue for ::std::collections::HashMap<K, V, S> {
        fn execir_value(&self) -> ExecirV { ExecirV::M(self.iter().map(|(k, v)| (k.execir_value(), v.execir_value())).collect()) }
    }
    impl<K: ExecirValue, V: ExecirValue> ExecirValue for ::std::collections::BTreeMap<K, V> {
        fn execir_value(&self) -> ExecirV { ExecirV::M(self.iter().map(|(k, v)| (k.execir_value(), v.execir_value())).collect()) }
    }
"""
)
"""The generic value of a result (``ExecirV``) and the trait that reads it, in the tests' module."""

SAME = """    fn execir_close(got: f64, expected: f64, single: bool) -> bool {
        let (rel, abs) = if single { (1e-5, 1e-6) } else { (1e-6, 1e-9) };
        got == expected || (got - expected).abs() <= (rel * expected.abs()).max(abs)
    }
    fn execir_same(got: &ExecirV, expected: &ExecirV) -> bool {
        match (got, expected) {
            (ExecirV::I(g), ExecirV::I(e)) => g == e,
            (ExecirV::F(g, single), ExecirV::I(e)) => execir_close(*g, *e as f64, *single),
            (ExecirV::I(g), ExecirV::F(e, _)) => (*g as f64) == *e,
            (ExecirV::F(g, single), ExecirV::F(e, _)) => execir_close(*g, *e, *single),
            (ExecirV::B(g), ExecirV::B(e)) => g == e,
            (ExecirV::S(g), ExecirV::S(e)) => g == e,
            (ExecirV::N, ExecirV::N) => true,
            (ExecirV::L(g), ExecirV::L(e)) => g.len() == e.len() && g.iter().zip(e.iter()).all(|(a, b)| execir_same(a, b)),
            (ExecirV::M(g), ExecirV::M(e)) => {
                g.len() == e.len()
                    && e.iter().all(|(k, v)| g.iter().find(|(gk, _)| execir_same(gk, k)).map_or(false, |(_, gv)| execir_same(gv, v)))
            }
            _ => false,
        }
    }
"""
"""The comparison of a result's generic value with the expected one (see the module docstring)."""

KEY = """    fn execir_key(v: &ExecirV) -> String {
        match v {
            ExecirV::I(n) => format!("i:{}", n),
            ExecirV::F(f, _) => {
                if f.is_nan() { return "f:nan".to_string(); }
                let d = if *f == 0.0 { 0.0 } else { *f };
                format!("f:{:.5e}", d)
            }
            ExecirV::B(b) => format!("b:{}", b),
            ExecirV::S(s) => format!("s:{:?}", s),
            ExecirV::N => "null".to_string(),
            ExecirV::L(items) => format!("[{}]", items.iter().map(execir_key).collect::<Vec<_>>().join(",")),
            ExecirV::M(entries) => {
                let mut parts: Vec<String> = entries.iter().map(|(k, x)| format!("{}:{}", execir_key(k), execir_key(x))).collect();
                parts.sort();
                format!("map{{{}}}", parts.join(","))
            }
        }
    }
    fn execir_probe<F: FnOnce() -> String>(index: usize, thunk: F) {
        use ::std::io::Write;
        let key = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(thunk)).unwrap_or_else(|_| "raised".to_string());
        let line = format!("{}{} {}\\n", MARK, index, key.replace('\\n', "\\\\n"));
        let _ = ::std::io::stdout().write_all(line.as_bytes());
    }
""".replace("MARK", json.dumps(PROBE_MARK + " "))
"""Each probe's canonical text on its marked stdout line (a panic caught as ``raised``)."""


def _module(body: str, test: str, lines: list[str]) -> str:
    checks = "".join(f"        {line}\n" for line in lines)
    head = "#[cfg(test)]\nmod tests {\n    #![allow(unused_imports, dead_code)]\n    use super::*;\n"
    return f"{head}{body}\n    #[test]\n    fn {test}() {{\n{checks}    }}\n}}\n"


def rust_program(checks: list[str]) -> str:
    """The tests' module of the checks (HumanEval-X's Rust test shape)."""
    return _module(VALUE_HELPER + SAME, "execir_examples", checks)


def rust_probe_program(calls: list[str], _: Signature | None) -> str:
    """The tests' module printing each probe call's canonical result."""
    probes = [f"execir_probe({index}, || execir_key(&ExecirValue::execir_value(&{call})));" for index, call in enumerate(calls)]
    return _module(VALUE_HELPER + KEY, "execir_probes", ["::std::panic::set_hook(Box::new(|_| {}));", *probes])
