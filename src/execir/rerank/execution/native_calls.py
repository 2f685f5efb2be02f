"""Call examples of JavaScript, C++ and Ruby queries as native test programs (pure: text in, text out).

:func:`native_suite` turns a query's call examples (read in the language's syntax by
:func:`execir.rerank.execution.examples.extract_examples`) into a ``native`` test suite in that language,
run by the oracle like HumanEval-X's own tests: the candidate program, then the tests, in the
language's sandboxed runtime. An example is written only when both sides are plain literals:
numbers, strings, booleans (``null`` in JavaScript), and lists of them, and the call is exactly one
call of the entry point with such arguments (no keyword arguments, no value builtins such as
``round``); any other example is dropped and counted.

* **JavaScript**: arrays for lists and tuples (HumanEval-X's JavaScript returns ``[sum, product]``
  where Python returns a tuple), objects with string keys for dicts; every example is checked in one
  function scope (the program's globals cannot shadow the helper), by :data:`JS_SAME`: numbers
  within the Python reranker's tolerance (relative 1e-6, absolute 1e-9), where a returned numeric
  string counts as its number (HumanEval-X's JavaScript returns ``area.toFixed(2)`` and its tests
  compare with ``==``), arrays element by element, plain objects key by key, anything else by ``===``.
* **C++**: brace lists for lists, tuples and sets (C++'s ``{1, 1, 2}`` is a vector: order and
  duplicates are kept). By :data:`CPP_SAME`: an expected number is compared as a ``double`` with
  a call that must return a number (an ``int`` 2 is not 2.33; ``float``/``double`` within relative
  1e-6, ``float`` 1e-5, or absolute 1e-9, ``float`` 1e-6); an expected string with a call whose
  result converts to ``std::string``; a boolean or a brace list is converted to the call's own type
  (``decltype(call)(true)``, ``decltype(call){...}``) and compared with ``==``, vectors element by
  element with the same float tolerance. Dicts are dropped (a C++ map literal needs
  its types). The tests call the entry point undeclared, so the runtime compiles them after the
  program in one translation unit (its documented fallback: the program's ``NDEBUG``/``assert``/
  ``main`` macros are undone, but a program written against this harness could still declare its
  own ``execir_examples::same`` overload; mutants and ordinary code do not).

* **Ruby** (MBXP's ``irb>`` / ``=>`` examples): arrays for lists and tuples, hashes with ``=>``,
  double-quoted strings with ``#`` escaped (no interpolation); checked by :data:`RUBY_SAME` in the
  tests' own top-level script (MBXP's shape: ``raise`` on a mismatch): a float on either side
  within the same tolerance (an ``Integer`` result equals an integral expectation exactly), arrays
  element by element, hashes key by key, anything else by ``expected == got`` with the trusted
  expected value as the receiver.

A candidate passes when every written example holds; a failing candidate scores 0 (the per-example
share the Python suite gives is not available from one native run).
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from execir.language_declarations import CallForm, calling
from execir.rerank.execution.examples import CallExample
from execir.types import TestSuite

if TYPE_CHECKING:
    from execir.rerank.execution.typed_values import Signature

NATIVE_CALL_LANGUAGES = calling(CallForm.NATIVE)

JS_SAME = """const execirSame = (got, expected) => {
    if (typeof expected === "number") {
      const value = typeof got === "string" && got.trim() !== "" ? Number(got) : got;
      if (typeof value !== "number") return false;
      return value === expected || Math.abs(value - expected) <= Math.max(1e-6 * Math.abs(expected), 1e-9);
    }
    if (Array.isArray(expected)) {
      return Array.isArray(got) && got.length === expected.length && expected.every((e, i) => execirSame(got[i], e));
    }
    if (expected !== null && typeof expected === "object") {
      if (got === null || typeof got !== "object" || Array.isArray(got)) return false;
      const keys = Object.keys(expected);
      return Object.keys(got).length === keys.length
        && keys.every((k) => Object.prototype.hasOwnProperty.call(got, k) && execirSame(got[k], expected[k]));
    }
    return got === expected;
  };
"""
"""The JavaScript comparison (declared inside the tests' function scope)."""

CPP_SAME = """#include <cassert>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>
namespace execir_examples {
template <class T> bool same(const T &got, const T &expected) { return got == expected; }
inline bool close(double got, double expected, double rel, double abs_tol) {
  return got == expected || std::fabs(got - expected) <= std::fmax(rel * std::fabs(expected), abs_tol);
}
inline bool same(const double &got, const double &expected) { return close(got, expected, 1e-6, 1e-9); }
inline bool same(const float &got, const float &expected) { return close(got, expected, 1e-5, 1e-6); }
template <class T> bool same(const std::vector<T> &got, const std::vector<T> &expected) {
  if (got.size() != expected.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same(got[i], expected[i])) return false;
  return true;
}
template <class T> bool number(const T &got, double expected) {
  static_assert(std::is_arithmetic<T>::value, "the example expects a number");
  if (std::is_same<T, float>::value) return close(got, expected, 1e-5, 1e-6);
  if (std::is_floating_point<T>::value) return close(got, expected, 1e-6, 1e-9);
  return static_cast<double>(got) == expected;
}
inline bool text(const std::string &got, const std::string &expected) { return got == expected; }
}  // namespace execir_examples
"""
"""The C++ comparison (after the program, in the tests' part of the one translation unit)."""


class Unwritable(Exception):
    """A value the language has no plain literal for."""


@dataclass(frozen=True)
class NativeSuite:
    """A query's call examples as a native test program, and how many could not be written."""

    suite: TestSuite
    written: int
    dropped: int


@lru_cache(maxsize=1024)
def native_suite(examples: tuple[CallExample, ...], language: str) -> NativeSuite | None:
    """The ``native`` suite of ``examples`` in ``language``; None when the language has no writer or
    none of the examples can be written. Cached: planning asks once per query (to count what it
    drops) and again for each of its candidates."""
    from execir.rerank.execution.writers import writer_of

    writer = writer_of(language)
    if writer is None or writer.signature is not None:
        return None
    return written_suite(examples, writer.check, writer.tests, None)


def written_suite(
    examples: tuple[CallExample, ...],
    check: Callable[[CallExample, Signature | None], str],
    tests: Callable[[list[str], Signature | None], str],
    declared: Signature | None,
) -> NativeSuite | None:
    """The ``native`` suite of the examples a writer can write (``check``, then ``tests`` around the
    checks); None when it can write none of them."""
    checks: list[str] = []
    for example in examples:
        try:
            checks.append(check(example, declared))
        except Unwritable:
            continue
    if not checks:
        return None
    return NativeSuite(TestSuite(kind="native", code=tests(checks, declared)), len(checks), len(examples) - len(checks))


def call_parts(example: CallExample) -> tuple[str, list[ast.expr], ast.expr]:
    """The entry point, the argument trees and the expected tree of a plain example."""
    try:
        call = ast.parse(example.call, mode="eval").body
        expected = ast.parse(example.expected, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise Unwritable(example.call) from None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == example.entry_point) or call.keywords:
        raise Unwritable("not a plain call of the entry point")
    return example.entry_point, list(call.args), expected


# ---- JavaScript ----------------------------------------------------------------------------------


def js_call(example: CallExample) -> str:
    """The example's call as JavaScript source."""
    name, args, _ = call_parts(example)
    return f"{name}({', '.join(js_literal(arg) for arg in args)})"


def js_check(example: CallExample) -> str:
    _, _, expected = call_parts(example)
    call = js_call(example)
    return f"if (!execirSame({call}, {js_literal(expected)})) throw new Error({json.dumps('example failed: ' + call)});"


def js_literal(node: ast.expr) -> str:
    """JavaScript source of a literal tree (raises :class:`Unwritable` for anything else)."""
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None or isinstance(value, (bool, str)):
            return json.dumps(value)
        return number_source(value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant):
        return ("-" if isinstance(node.op, ast.USub) else "") + number_source(node.operand.value)
    if isinstance(node, (ast.List, ast.Tuple)):
        return "[" + ", ".join(js_literal(element) for element in node.elts) + "]"
    if isinstance(node, ast.Dict):
        keys = [key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None for key in node.keys]
        if any(key is None for key in keys):
            raise Unwritable("an object key that is not a string")
        return "{" + ", ".join(f"{json.dumps(key)}: {js_literal(value)}" for key, value in zip(keys, node.values)) + "}"
    raise Unwritable(type(node).__name__)


def js_program(checks: list[str]) -> str:
    body = "".join(f"  {check}\n" for check in checks)
    return f"(() => {{\n  {JS_SAME}{body}}})();\n"


# ---- C++ -------------------------------------------------------------------------------------------


def cpp_call(example: CallExample) -> str:
    """The example's call as C++ source."""
    name, args, _ = call_parts(example)
    return f"{name}({', '.join(cpp_literal(arg) for arg in args)})"


def cpp_check(example: CallExample) -> str:
    _, _, expected = call_parts(example)
    call = cpp_call(example)
    literal = cpp_literal(expected)
    if isinstance(expected, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
        return f"assert(execir_examples::same({call}, decltype({call}){literal}));"
    if isinstance(expected, ast.Constant) and isinstance(expected.value, bool):
        return f"assert(execir_examples::same({call}, decltype({call})({literal})));"
    if isinstance(expected, ast.Constant) and isinstance(expected.value, str):
        return f"assert(execir_examples::text({call}, {literal}));"
    return f"assert(execir_examples::number({call}, {literal}));"


def cpp_literal(node: ast.expr) -> str:
    """C++ source of a literal tree (raises :class:`Unwritable` for anything else)."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return _cpp_string(value)
        return number_source(value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant):
        return ("-" if isinstance(node.op, ast.USub) else "") + number_source(node.operand.value)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return "{" + ", ".join(cpp_literal(element) for element in node.elts) + "}"
    if isinstance(node, ast.Dict) and not node.keys:  # `{}` reads as an empty dict in Python
        return "{}"
    raise Unwritable(type(node).__name__)


def _cpp_string(text: str) -> str:
    """A narrow string literal of ``text`` (UTF-8; every byte outside printable ASCII as octal)."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 32 <= byte < 127 and char != "?":  # `?` stays out of trigraphs
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def cpp_program(checks: list[str]) -> str:
    body = "".join(f"  {check}\n" for check in checks)
    return f"{CPP_SAME}int main() {{\n{body}  return 0;\n}}\n"


# ---- Ruby ------------------------------------------------------------------------------------------

RUBY_SAME = """execir_class = Kernel.instance_method(:class)
execir_same = nil
execir_same = lambda do |got, expected|
  kind = execir_class.bind_call(got)
  if Float === expected || (Integer === expected && kind == Float)
    next false unless kind == Integer || kind == Float
    next got == expected || (got.to_f - expected).abs <= [1e-6 * expected.abs, 1e-9].max
  end
  if Array === expected
    next kind == Array && got.length == expected.length && expected.each_index.all? { |i| execir_same.call(got[i], expected[i]) }
  end
  if Hash === expected
    next kind == Hash && got.length == expected.length && expected.all? { |k, v| got.key?(k) && execir_same.call(got[k], v) }
  end
  expected == got
end
"""
"""The Ruby comparison (a lambda: the runner refuses tests that define methods). Classes are asked
through ``Kernel#class`` bound to the value and ``Class#===`` (frozen by the runner), and every
other comparison has the expected value as its receiver, so a returned object's own ``is_a?``,
``class`` or ``==`` is never asked."""


def ruby_call(example: CallExample) -> str:
    """The example's call as Ruby source."""
    name, args, _ = call_parts(example)
    return f"{name}({', '.join(ruby_literal(arg) for arg in args)})"


def ruby_check(example: CallExample) -> str:
    _, _, expected = call_parts(example)
    call = ruby_call(example)
    return f"raise StandardError, {_ruby_string('example failed: ' + example.call)} unless execir_same.call({call}, {ruby_literal(expected)})"


def ruby_literal(node: ast.expr) -> str:
    """Ruby source of a literal tree (raises :class:`Unwritable` for anything else)."""
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None:
            return "nil"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return _ruby_string(value)
        return number_source(value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant):
        return ("-" if isinstance(node.op, ast.USub) else "") + number_source(node.operand.value)
    if isinstance(node, (ast.List, ast.Tuple)):
        return "[" + ", ".join(ruby_literal(element) for element in node.elts) + "]"
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise Unwritable("dict unpacking")
        return "{" + ", ".join(f"{ruby_literal(key)} => {ruby_literal(value)}" for key, value in zip(node.keys, node.values) if key is not None) + "}"
    raise Unwritable(type(node).__name__)


def _ruby_string(text: str) -> str:
    """A double-quoted Ruby string of ``text`` (``#`` escaped: no interpolation; non-ASCII as ``\\u{...}``)."""
    out = []
    for char in text:
        if char in '"\\#':
            out.append("\\" + char)
        elif 32 <= ord(char) < 127:
            out.append(char)
        elif 0xD800 <= ord(char) <= 0xDFFF:
            raise Unwritable("a lone surrogate")
        else:
            out.append(f"\\u{{{ord(char):x}}}")
    return '"' + "".join(out) + '"'


def ruby_program(checks: list[str]) -> str:
    return RUBY_SAME + "".join(f"{check}\n" for check in checks)


def number_source(value: object) -> str:
    """A finite int or float as source both languages read; raises for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Unwritable(repr(value))
    if isinstance(value, float) and not math.isfinite(value):
        raise Unwritable(repr(value))
    return repr(value)
