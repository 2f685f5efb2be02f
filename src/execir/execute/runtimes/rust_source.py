"""Reading Rust source for the runtime: comments and literals masked, test functions found and
made callable by the trusted runner, the tests' standard macros pinned to ``::std``, an entry
point's signature and its types parsed.

Everything here reads trusted text (the tests, the reference) or only decides how the trusted side
calls a candidate (its declared signature); the compiler checks whatever this gets wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RAW = re.compile(r'b?r(#*)"')
STD_MACROS = (
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "vec",
    "format",
    "panic",
    "matches",
    "println",
    "print",
    "eprintln",
    "eprint",
    "write",
    "writeln",
    "unreachable",
    "todo",
    "unimplemented",
    "concat",
    "stringify",
)
"""Macros the tests call that a program's ``macro_rules!`` of the same name would otherwise shadow
(textual macro scope reaches the tests' module): the tests call them as ``::std::name!``."""
_MACRO_CALL = re.compile(r"(?<![\w:$])(" + "|".join(STD_MACROS) + r")\s*!")


def mask(code: str) -> str:
    """``code`` with every comment and string or character literal replaced by spaces (same length,
    newlines kept), so that what remains is code: braces, names, punctuation."""
    out = list(code)
    i, n = 0, len(code)

    def blank(start: int, end: int) -> None:
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        ch = code[i]
        if code.startswith("//", i):
            end = code.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif code.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if code.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif code.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (raw := _RAW.match(code, i)) and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] == "_")):
            close = '"' + raw.group(1)
            end = code.find(close, raw.end())
            end = n if end < 0 else end + len(close)
            blank(i, end)
            i = end
        elif ch == '"' or (ch == "b" and code.startswith('b"', i) and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] == "_"))):
            j = i + (2 if ch == "b" else 1)
            while j < n and code[j] != '"':
                j += 2 if code[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif ch == "'":
            closed = _char_end(code, i)
            if closed is None:
                i += 1  # a lifetime or label
            else:
                blank(i, closed)
                i = closed
        else:
            i += 1
    return "".join(out)


def _char_end(code: str, i: int) -> int | None:
    """The end of the character literal starting at ``i`` (a quote), or None (a lifetime)."""
    if code.startswith("\\", i + 1):
        j = i + 2
        if code.startswith("u{", j):
            close = code.find("}", j)
            j = close + 1 if close > 0 else j + 1
        elif code.startswith("x", j):
            j += 3
        else:
            j += 1
        return j + 1 if code.startswith("'", j) else None
    if i + 2 < len(code) and code[i + 2] == "'" and code[i + 1] != "'":
        return i + 3
    return None


@dataclass(frozen=True)
class TestFunctions:
    """The tests made callable from outside their crate: the rewritten text and each test
    function's path from the module holding the text (``tests::test_add``)."""

    code: str
    paths: tuple[str, ...]


_TEST_ATTR = re.compile(r"#\s*\[\s*test\s*\]")
_FN = re.compile(r"\bfn\s+([A-Za-z_]\w*)")
_MOD = re.compile(r"\b(pub(?:\s*\([^)]*\))?\s+)?mod\s+([A-Za-z_]\w*)\s*\{")


def test_functions(tests: str) -> TestFunctions:
    """Every ``#[test]`` function of ``tests`` with its module path; in the returned text the
    attribute is gone, each test function and module is ``pub(crate)`` and the standard macros
    are called by their ``::std`` paths."""
    masked = mask(tests)
    edits: list[tuple[int, int, str]] = []
    paths: list[str] = []
    stack: list[tuple[str, int]] = []
    depth = 0
    i = 0
    events: list[tuple[int, str, re.Match[str]]] = [(m.start(), "mod", m) for m in _MOD.finditer(masked)]
    events += [(m.start(), "test", m) for m in _TEST_ATTR.finditer(masked)]
    events.sort(key=lambda e: e[0])
    for position, kind, match in events:
        for ch in masked[i:position]:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                while stack and stack[-1][1] > depth:
                    stack.pop()
        i = position
        if kind == "mod":
            if match.group(1) is None:
                edits.append((match.start(), match.start(), "pub(crate) "))
            stack.append((match.group(2), depth + 1))
        else:
            found = _FN.search(masked, match.end())
            if found is None:
                continue
            head = masked[match.end() : found.start()]
            keep = "pub(crate) " if "pub" not in head.split("]")[-1] else ""
            edits.append((match.start(), match.end(), ""))
            edits.append((found.start(), found.start(), keep))
            paths.append("::".join([name for name, _ in stack] + [found.group(1)]))
    for m in _MACRO_CALL.finditer(masked):
        edits.append((m.start(), m.start(), "::std::"))
    out = tests
    for start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        out = out[:start] + text + out[end:]
    return TestFunctions(out, tuple(paths))


@dataclass(frozen=True)
class Signature:
    """A function's declaration as written: generics (without the angle brackets, "" when none),
    each parameter's pattern and type, the return type ("" for ``()``), and where the ``fn``
    keyword and the body's opening brace are in the source."""

    name: str
    generics: str
    params: tuple[tuple[str, str], ...]
    returns: str
    start: int
    body: int


def signature(code: str, name: str) -> Signature | None:
    """The declaration of the top-level function ``name`` in ``code`` (None: not found, or the
    declaration is not one this reads: ``where`` clauses, patterns other than a name)."""
    masked = mask(code)
    for found in re.finditer(r"\bfn\s+" + re.escape(name) + r"\b", masked):
        if _depth(masked, found.start()) != 0:
            continue
        i = found.end()
        generics = ""
        while i < len(masked) and masked[i].isspace():
            i += 1
        if masked.startswith("<", i):
            end = _close(masked, i, "<", ">")
            if end is None:
                return None
            generics, i = code[i + 1 : end].strip(), end + 1
        while i < len(masked) and masked[i].isspace():
            i += 1
        if not masked.startswith("(", i):
            return None
        end = _close(masked, i, "(", ")")
        if end is None:
            return None
        params = []
        for part in split_top(code[i + 1 : end]):
            pattern, colon, kind = part.partition(":")
            words = pattern.split()
            if not colon or not words or words[-1] in ("self", "&self") or not re.fullmatch(r"[A-Za-z_]\w*", words[-1]):
                return None
            params.append((pattern.strip(), " ".join(kind.split())))
        body = masked.find("{", end)
        if body < 0:
            return None
        tail = code[end + 1 : body].strip()
        if "where" in re.findall(r"\w+", masked[end + 1 : body]):
            return None
        returns = " ".join(tail[2:].split()) if tail.startswith("->") else ""
        if tail and not tail.startswith("->"):
            return None
        return Signature(name, generics, tuple(params), returns, found.start(), body)
    return None


def _depth(masked: str, position: int) -> int:
    return masked.count("{", 0, position) - masked.count("}", 0, position)


def _close(text: str, start: int, opening: str, closing: str) -> int | None:
    depth = 0
    for j in range(start, len(text)):
        ch = text[j]
        if ch == opening:
            depth += 1
        elif ch == closing and not (closing == ">" and j > 0 and text[j - 1] == "-"):
            depth -= 1
            if depth == 0:
                return j
    return None


def split_top(text: str) -> list[str]:
    """``text`` split at the commas outside brackets (type lists, parameter lists); empty parts dropped."""
    parts, depth, current = [], 0, ""
    for j, ch in enumerate(text):
        if ch in "<([":
            depth += 1
        elif ch in ")]" or (ch == ">" and not (j > 0 and text[j - 1] == "-")):
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]
