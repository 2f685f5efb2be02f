"""Reading Go source as text for the judged-outside plans: which characters are code (outside
comments and literals), the entry function's signature, renaming the reference's entry function,
and the trusted runs' deterministic clock in place of ``time.Now()`` in the tests."""

from __future__ import annotations

import re

from execir.execute.runtimes import source_mask

REFERENCE_PREFIX = "execirReference"
"""The reference's entry function is renamed to this prefix + its name in the record and judge runs."""
CLOCK = "time.Unix(0, execirClock())"
"""What ``time.Now()`` becomes in the tests of the record and judge runs (one sequence in both)."""
_PACKAGE = re.compile(r"^\s*package\s+(\w+)", re.M)
_TIME_IMPORT = re.compile(r'^\s*(?:import\s+)?"time"\s*$', re.M)
_NOW = re.compile(r"(?<![\w.])time\s*\.\s*Now\s*\(\s*\)")
_TYPE_BRACE = re.compile(r"(?<![\w.])(?:interface|struct)\s*$")
"""Before a ``{`` that opens a type literal's body, not the function's."""
_QUALIFIED = re.compile(r"(?<![\w.])[A-Za-z_]\w*\s*\.\s*[A-Za-z_]")


def code_mask(source: str) -> list[bool]:
    """For each character: is it code (not inside a comment, string, raw string or rune literal)?"""
    return source_mask.code_mask(source, ("`",))


def package_name(source: str) -> str:
    """The package clause's name (``main`` when there is none)."""
    found = _PACKAGE.search(masked(source))
    return found.group(1) if found else "main"


def masked(source: str) -> str:
    """``source`` with every character that is not code replaced by a space (same offsets)."""
    mask = code_mask(source)
    return "".join(c if keep or c == "\n" else " " for c, keep in zip(source, mask))


def signature(source: str, name: str) -> str | None:
    """The text after ``func name`` of the top-level, non-generic function ``name`` (its parameters
    and results, up to the body's brace), or None when there is no such function."""
    text = masked(source)
    found = re.search(rf"^func\s+{re.escape(name)}\s*\(", text, re.M)
    if found is None:
        return None
    start = found.end() - 1
    depth = 0
    for k in range(start, len(text)):
        if text[k] in "([" or text[k] == "{" and _TYPE_BRACE.search(text, 0, k):
            depth += 1
        elif text[k] in ")]}":
            depth -= 1
        elif text[k] == "{" and depth == 0:
            return " ".join(source[start:k].split())
    return None


def func_type(source: str, name: str) -> str | None:
    """``func(...) ...``, the type of the function ``name`` when it names no other package's type
    (the entry file that states it imports nothing), else None."""
    found = signature(source, name)
    if found is None or _QUALIFIED.search(found):
        return None
    return "func" + found


def rename(source: str, name: str, new: str) -> str:
    """Every code occurrence of the identifier ``name`` not after a ``.`` renamed to ``new``."""
    mask = code_mask(source)
    pieces, last = [], 0
    for found in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", source):
        if mask[found.start()]:
            pieces += [source[last : found.start()], new]
            last = found.end()
    return "".join(pieces) + source[last:]


def fixed_clock(tests: str) -> str:
    """``tests`` with each code ``time.Now()`` replaced by :data:`CLOCK` (when ``time`` is the
    standard package, imported under its own name)."""
    if not _TIME_IMPORT.search(tests):
        return tests
    mask = code_mask(tests)
    pieces, last = [], 0
    for found in _NOW.finditer(tests):
        if mask[found.start()]:
            pieces += [tests[last : found.start()], CLOCK]
            last = found.end()
    return "".join(pieces) + tests[last:]
