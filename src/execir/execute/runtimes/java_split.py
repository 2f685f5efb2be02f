"""Java judged outside the candidate's process: the reference's entry method renamed and wrapped.

The trusted runs (record, judge) use one set of classes per task, compiled once on the host by
trusted code (:func:`judge_classes`): the reference program with its entry method renamed
``execir$entry$NAME`` and a wrapper of the same signature in its place whose body hands the
arguments to ``execir.Split.call`` (harness ``java_Split.java``), and the task's tests, unchanged
but for the default imports. Every other member of the reference (helpers such as ``poly`` or
``encodeCyclic`` that the tests call) stays the reference's. The candidate's run compiles the
program beside stubs of the tests' top-level classes (so a program declaring ``class Main`` is a
duplicate class, ERROR, as in the tests' own build; see :data:`STUB`) and runs ``execir.Caller``.

Only an entry method declared once, directly in a top-level class of the reference, with a body,
is wrapped; anything else (overloads, a nested class, an annotation the copy breaks) leaves the
tests in-process.
"""

from __future__ import annotations

import functools
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from execir.execute.runtimes.java_source import _body, _depths, _header_start, _top_level_types, code_mask, declared_classes

PREFIX = "execir$entry$"
REFERENCE_FILE = "Solution.java"
TESTS_FILE = "Main.java"
_METHOD = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(")
_PARAM_NAME = re.compile(r"([A-Za-z_$][\w$]*)\s*(?:\[\s*\]\s*)*$")
_VOID = re.compile(r"(?<![\w$])void\s*$")


@dataclass(frozen=True)
class Wrapped:
    """The reference with its entry method wrapped: the source, the class declaring the entry."""

    source: str
    owner: str
    name: str


def _close(source: str, mask: list[bool], open_: int, pairs: str = "()") -> int | None:
    """The index of the bracket closing the one at ``open_``."""
    depth = 0
    for k in range(open_, len(source)):
        if not mask[k]:
            continue
        if source[k] == pairs[0]:
            depth += 1
        elif source[k] == pairs[1]:
            depth -= 1
            if depth == 0:
                return k
    return None


def _split_params(text: str) -> list[str]:
    """Parameters of a declaration, split at the commas outside ``<>``, ``()`` and ``[]``."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def declared_methods(source: str) -> list[tuple[str, int, int, int, int, int]]:
    """Methods with a body declared directly in the top-level types: (owner, name start, header
    start, open paren, close paren, open brace) each."""
    mask = code_mask(source)
    depths = _depths(source, mask)
    found = []
    for kind in _top_level_types(source, mask, depths):
        body = _body(source, mask, depths, kind.end())
        if body is None:
            continue
        for m in _METHOD.finditer(source, body[0] + 1, body[1]):
            if not mask[m.start()] or depths[m.start()] != 1 or m.group(1) in ("if", "for", "while", "switch", "return", "new", "catch", "synchronized"):
                continue
            paren = m.end() - 1
            close = _close(source, mask, paren)
            if close is None:
                continue
            rest = re.match(r"\s*(?:throws\s+[\w$.<>,\s]+?)?\s*\{", source[close + 1 :])
            if rest is None or not all(mask[close + 1 : close + 1 + rest.end()]):
                continue
            header = _header_start(source, mask, depths, m.start())
            found.append((kind.group(1), m.start(), header, paren, close, close + rest.end()))
    return found


def entry_name(reference: str, entry_point: str) -> str | None:
    """The reference's method the tests call as the entry point: ``entry_point`` when declared, else
    the one declared method whose name matches it ignoring case and underscores, else the only
    method of the reference."""
    names = sorted({reference[m[1] : m[3]].strip() for m in declared_methods(reference)})
    if entry_point in names:
        return entry_point
    folded = [n for n in names if n.replace("_", "").lower() == entry_point.replace("_", "").lower()]
    if len(folded) == 1:
        return folded[0]
    return names[0] if len(names) == 1 else None


def wrap(reference: str, name: str) -> Wrapped | None:
    """The reference with ``name`` renamed and a wrapper calling ``execir.Split.call`` in its place,
    or None when the entry cannot be wrapped (not declared exactly once, unreadable parameters)."""
    mask = code_mask(reference)
    methods = [m for m in declared_methods(reference) if reference[m[1] : m[3]].strip() == name]
    if len(methods) != 1:
        return None
    owner, start, header, paren, close, brace = methods[0]
    prefix = "".join(ch for ch, code in zip(reference[header:start], mask[header:start]) if code)
    params = _split_params(reference[paren + 1 : close])
    names = []
    for param in params:
        found = _PARAM_NAME.search(param)
        if found is None or found.group(1) == "this":
            return None
        names.append(found.group(1))
    end = _close(reference, mask, brace, "{}")
    if end is None:
        return None
    arguments = ", ".join(names)
    call = f"{PREFIX}{name}({arguments})"
    boxed = f"new Object[]{{{arguments}}}"
    receiver = "null" if re.search(r"(?<![\w$])static(?![\w$])", prefix) else "this"
    if _VOID.search(prefix.strip()):
        body = f"execir.Split.call({receiver}, {boxed}, () -> {{ {call}; return null; }});"
    else:
        body = f"return execir.Split.call({receiver}, {boxed}, () -> {call});"
    wrapper = f"\n{prefix.strip()} {reference[start:brace].strip()} {{ {body} }}\n"
    source = reference[:start] + PREFIX + reference[start : end + 1] + wrapper + reference[end + 1 :]
    return Wrapped(source, owner, name)


STUB = "class {name} {{ public static void main(String[] args) {{ execir.Caller.enteredTests(); }} }}\n"
"""A stand-in for one of the tests' top-level types in the candidate's run: a program declaring a
class of that name is a duplicate class (ERROR, as in the tests' own build), and one that runs the
tests' ``main`` (to search for the answers it accepts) ends the run (FAIL), as the in-process
guard does. The caller loads it, then deletes its files, before any class of the program loads."""


def stubs(tests: str) -> dict[str, str]:
    """The :data:`STUB` of each of the tests' top-level types, compiled beside the candidate's program."""
    return {TESTS_FILE: "".join(STUB.format(name=name) for name in declared_classes(tests))}


@functools.lru_cache(maxsize=512)
def judge_classes(javac: str, trusted: tuple[tuple[str, str], ...], reference: str, tests: str, flags: tuple[str, ...]) -> dict[str, str] | None:
    """The class files (as surrogateescape text) of the wrapped reference and the tests, compiled on
    the host against the trusted ``execir`` classes (``trusted``: name, text pairs); None when they
    do not compile."""
    with tempfile.TemporaryDirectory(prefix="execir-java-judge-") as tmp:
        root = Path(tmp)
        (root / "execir").mkdir()
        for name, text in trusted:
            (root / name).write_bytes(text.encode("utf-8", "surrogateescape"))
        (root / REFERENCE_FILE).write_text(reference, encoding="utf-8")
        (root / TESTS_FILE).write_text(tests, encoding="utf-8")
        try:
            done = subprocess.run([javac, *flags, REFERENCE_FILE, TESTS_FILE], cwd=root, capture_output=True, timeout=300)
        except (OSError, subprocess.SubprocessError):
            return None
        if done.returncode != 0:
            return None
        return {path.name: path.read_bytes().decode("utf-8", "surrogateescape") for path in sorted(root.glob("*.class"))}
