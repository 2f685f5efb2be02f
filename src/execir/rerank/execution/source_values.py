"""Go, Java and Ruby example values rewritten in Python literal syntax (pure: text in, text out).

HumanEval-X's Go and Java prompts write their examples' arguments in the language's own value
syntax (``[]float64{1.0, 2.0}``, ``Arrays.asList(1, 2)``), in Python's (``['a', 'b']``, HumanEval's
examples copied as they were) or in a mix of both, and their expected values as printed text
(``[0, 1, 2]``, Java's ``Optional.empty`` and ``Optional[a]``). Neither language's value carries its
type in the examples' Python form, so these rewrites only drop the syntax a value's *type* is
spelled in and keep the values: the Go and Java writers of :mod:`execir.rerank.execution.typed_calls` write
each value back with the type the candidate's own signature declares.

* :func:`go_values`: a composite literal's type (``[]T{``, ``[N]T{``, ``[][]T{``) becomes ``[``
  and its closing brace ``]``; an element of a slice whose type is elided (``{1, 2}`` inside
  ``[][]int{...}``) is a list too; a map literal's type (``map[K]V{``) is dropped, its braces kept
  (a Python dict).
* :func:`ruby_values`: a hash's ``=>`` becomes ``:`` (a Python dict); Ruby's arrays, strings,
  numbers and ``true``/``false``/``nil`` read as Python's already.
* :func:`java_values`: ``Arrays.asList(...)``, ``List.of(...)`` and ``new ArrayList<>(...)``
  around them, array creation (``new int[]{1, 2}``), ``Optional.empty()``/``Optional.of(x)`` and
  numeric suffixes (``2L``, ``1.5f``); the printed forms ``Optional.empty`` (None) and ``Optional[x]``
  (x, as a string when it is not a literal).

Text in string and character literals is copied unchanged. What these rewrites do not recognise
stays as it is and then fails to read as a literal (the example is skipped and counted, never
guessed): ``Map.of``, casts, method calls on values, Go's raw strings.
"""

from __future__ import annotations

import ast
import re

_GO_TYPE = r"(?:interface\s*\{\s*\}|\*?[A-Za-z_][\w.]*)"
_GO_SLICE = re.compile(rf"(?:\[\d*\])+{_GO_TYPE}\s*\{{")
_GO_MAP = re.compile(rf"map\[{_GO_TYPE}\](?:\[\d*\])*{_GO_TYPE}\s*\{{")

_JAVA_LIST = re.compile(r"(?:java\.util\.)?(?:Arrays\.asList|List\.of)\s*\(")
_JAVA_COPY = re.compile(r"new\s+(?:java\.util\.)?(?:ArrayList|LinkedList)\s*<[\w<>,.\s]*>\s*\(")
_JAVA_ARRAY = re.compile(r"new\s+[A-Za-z_][\w.]*\s*(?:\[\s*\]\s*)+\{")
_JAVA_EMPTY = re.compile(r"(?:java\.util\.)?Optional\.empty\s*(?:\(\s*\))?")
_JAVA_OF = re.compile(r"(?:java\.util\.)?Optional\.of(?:Nullable)?\s*\(")
_JAVA_SUFFIX = re.compile(r"(?<![\w.])(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)[lLfFdD](?!\w)")
_JAVA_PRINTED_OPTIONAL = re.compile(r"^\s*Optional\[(.*)\]\s*$", re.DOTALL)


def go_values(text: str) -> str:
    """``text`` with Go's composite-literal types dropped (see the module docstring)."""
    out: list[str] = []
    closers: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char in "\"'":
            end = _literal_end(text, i)
            out.append(text[i:end])
            i = end
            continue
        word_start = i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        if char == "[" and (match := _GO_SLICE.match(text, i)):
            out.append("[")
            closers.append("]")
            i = match.end()
            continue
        if char == "m" and word_start and (match := _GO_MAP.match(text, i)):
            out.append("{")
            closers.append("}")
            i = match.end()
            continue
        if char == "{":
            closer = "]" if closers and closers[-1] == "]" else "}"
            out.append("[" if closer == "]" else "{")
            closers.append(closer)
        elif char == "}":
            out.append(closers.pop() if closers else "}")
        else:
            out.append(char)
        i += 1
    return "".join(out)


def ruby_values(text: str) -> str:
    """``text`` with every ``=>`` inside braces (a hash's key-value separator) written as ``:``."""
    out: list[str] = []
    depth = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char in "\"'":
            end = _literal_end(text, i)
            out.append(text[i:end])
            i = end
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif depth > 0 and text.startswith("=>", i):
            out.append(":")
            i += 2
            continue
        out.append(char)
        i += 1
    return "".join(out)


def java_values(text: str) -> str:
    """``text`` with Java's collection, array and Optional syntax dropped (see the module docstring)."""
    printed = _JAVA_PRINTED_OPTIONAL.match(text)
    if printed:
        inner = java_values(printed.group(1))
        return inner if _is_literal(inner) else repr(printed.group(1).strip())
    out: list[str] = []
    closers: list[str] = []  # what each open bracket closes with (`` for a dropped wrapper)
    i = 0
    while i < len(text):
        char = text[i]
        if char in "\"'":
            end = _literal_end(text, i)
            out.append(text[i:end])
            i = end
            continue
        word_start = i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.")
        if word_start and (match := _JAVA_COPY.match(text, i)):
            rest = text[match.end() :].lstrip()
            if rest.startswith(")"):  # `new ArrayList<>()`: an empty list
                out.append("[]")
                i = text.index(")", match.end()) + 1
            else:
                closers.append("")
                i = match.end()
            continue
        for pattern, opener, closer in ((_JAVA_LIST, "[", "]"), (_JAVA_OF, "", ""), (_JAVA_ARRAY, "[", "]")):
            if word_start and (match := pattern.match(text, i)):
                out.append(opener)
                closers.append(closer)
                i = match.end()
                break
        else:
            if word_start and (match := _JAVA_EMPTY.match(text, i)):
                out.append("None")
                i = match.end()
                continue
            if word_start and char.isdigit() and (match := _JAVA_SUFFIX.match(text, i)):
                out.append(match.group(1))
                i = match.end()
                continue
            if char == "{":
                closer = "]" if closers and closers[-1] == "]" else "}"
                out.append("[" if closer == "]" else "{")
                closers.append(closer)
            elif char == "(":
                out.append(char)
                closers.append(")")
            elif char in ")}" and closers:
                out.append(closers.pop())
            else:
                out.append(char)
            i += 1
    return "".join(out)


def _literal_end(text: str, start: int) -> int:
    """The index after the string or character literal opening at ``text[start]`` (its end when unclosed)."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    return len(text)


def _is_literal(text: str) -> bool:
    """True when ``text`` reads as a Python literal once Java's constants are named."""
    named = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", text)))
    try:
        ast.literal_eval(named.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True
