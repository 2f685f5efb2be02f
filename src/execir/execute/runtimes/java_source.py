"""Reading Java source as text for the Java runtime: which characters are code (outside comments
and literals), brace depths, top-level types and their ``static void main(``; and the edits the
runtime makes to the tests (each ``Solution`` call wrapped in the boundary, the entry guard as the
first statement of ``Main.main``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from execir.execute.runtimes import source_mask

ENTER = " execirEnter();"
"""Inserted as the first statement of the tests' ``main``: it halts the run (FAIL) unless the runner
entered the tests (a candidate that calls ``Main.main`` itself to search for the expected answers)."""
_TOP_LEVEL = re.compile(r"^(?:(?:public|final|abstract|static|sealed|non-sealed|strictfp)\s+)*(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)", re.M)
_SOLUTION_VAR = re.compile(r"\bSolution\s+([A-Za-z_$][\w$]*)\s*=")


def code_mask(source: str) -> list[bool]:
    """For each character: is it code (not inside a comment, string, text block or char literal)?"""
    return source_mask.code_mask(source, ('"""',))


def wrap_solution_calls(tests: str) -> str:
    """``s.f(x)`` -> ``execirValue(s.f(x))`` for every variable ``s`` declared as ``Solution`` and for
    ``new Solution().f(x)``, outside comments and literals. A call that is a whole expression
    statement (possibly ``void``) is left alone: its value does not reach the tests."""
    mask = code_mask(tests)
    names = {m.group(1) for m in _SOLUTION_VAR.finditer(tests) if mask[m.start()]}
    receivers = [re.escape(v) for v in sorted(names)] + [r"new\s+Solution\s*\(\s*\)"]
    call = re.compile(r"(?<![\w$.])(?:" + "|".join(receivers) + r")\s*\.\s*[A-Za-z_$][\w$]*\s*\(")
    inserts: list[tuple[int, str]] = []
    for m in call.finditer(tests):
        if not mask[m.start()]:
            continue
        depth, k = 0, m.end() - 1
        while k < len(tests):
            if mask[k]:
                if tests[k] == "(":
                    depth += 1
                elif tests[k] == ")":
                    depth -= 1
                    if depth == 0:
                        break
            k += 1
        if k >= len(tests):
            continue
        j = m.start() - 1
        while j >= 0 and (not mask[j] or tests[j].isspace()):
            j -= 1
        if (j < 0 or tests[j] in ";{}") and tests[k + 1 :].lstrip().startswith(";"):
            continue
        inserts += [(m.start(), "execirValue("), (k + 1, ")")]
    out = tests
    for position, text in sorted(inserts, key=lambda item: item[0], reverse=True):
        out = out[:position] + text + out[position:]
    return out


_TYPE_KEYWORD = re.compile(r"(?<![\w$.])(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)")
_MAIN_METHOD = re.compile(r"(?<![\w$.])void\s+main\s*\(")


def _depths(source: str, mask: list[bool]) -> list[int]:
    """For each character: how many code braces enclose it (a brace itself counts as outside)."""
    depths, depth = [0] * len(source), 0
    for i, char in enumerate(source):
        if mask[i] and char == "}":
            depth = max(0, depth - 1)
        depths[i] = depth
        if mask[i] and char == "{":
            depth += 1
    return depths


def _header_start(source: str, mask: list[bool], depths: list[int], position: int) -> int:
    """Where the declaration ending at ``position`` starts: after the previous ``;``, ``{`` or ``}``
    of the same depth (its modifiers and annotations lie in between)."""
    depth, k = depths[position], position - 1
    while k >= 0 and not (mask[k] and source[k] in ";{}" and depths[k] <= depth):
        k -= 1
    return k + 1


def _body(source: str, mask: list[bool], depths: list[int], start: int) -> tuple[int, int] | None:
    """The span of the braces of the declaration whose header starts at ``start``."""
    depth = depths[start]
    open_ = next((k for k in range(start, len(source)) if mask[k] and source[k] == "{" and depths[k] == depth), None)
    if open_ is None:
        return None
    close = next((k for k in range(open_ + 1, len(source)) if mask[k] and source[k] == "}" and depths[k] == depth), len(source))
    return open_, close


def _has_word(source: str, mask: list[bool], start: int, end: int, word: str) -> bool:
    """Does ``word`` occur as code between ``start`` and ``end``?"""
    return any(mask[m.start()] for m in re.compile(rf"(?<![\w$]){word}(?![\w$])").finditer(source, start, end))


def _static_mains(source: str, mask: list[bool], depths: list[int], body: tuple[int, int]) -> Iterator[int]:
    """Where each ``static void main(`` declared directly in the type whose braces span ``body``
    starts (its return type), in order."""
    for method in _MAIN_METHOD.finditer(source, body[0] + 1, body[1]):
        if mask[method.start()] and depths[method.start()] == 1:
            header = _header_start(source, mask, depths, method.start())
            if _has_word(source, mask, header, method.start(), "static"):
                yield method.start()


def _top_level_types(source: str, mask: list[bool], depths: list[int]) -> Iterator[re.Match[str]]:
    """The ``class``/``interface``/``enum``/``record`` keywords of the top-level types (brace depth
    0, outside comments and literals), in order; group 1 is the name."""
    return (m for m in _TYPE_KEYWORD.finditer(source) if mask[m.start()] and depths[m.start()] == 0)


def top_level_types(source: str) -> list[tuple[str, bool, bool]]:
    """The top-level types of a compilation unit, in order: (name, declared ``public``, declares a
    ``static void main(``)."""
    mask = code_mask(source)
    depths = _depths(source, mask)
    found = []
    for m in _top_level_types(source, mask, depths):
        start = _header_start(source, mask, depths, m.start())
        public = _has_word(source, mask, start, m.start(), "public")
        body = _body(source, mask, depths, m.end())
        found.append((m.group(1), public, body is not None and next(_static_mains(source, mask, depths, body), None) is not None))
    return found


def insert_enter(tests: str) -> str:
    """The tests with :data:`ENTER` as the first statement of ``Main``'s ``static void main(``
    (unchanged when there is none: the runner then finds no ``main`` to call)."""
    mask = code_mask(tests)
    depths = _depths(tests, mask)
    main = next((m for m in _top_level_types(tests, mask, depths) if m.group(1) == "Main"), None)
    body = _body(tests, mask, depths, main.end()) if main is not None else None
    for start in _static_mains(tests, mask, depths, body) if body is not None else ():
        block = _body(tests, mask, depths, start)
        if block is not None and block[1] < len(tests):
            return tests[: block[0] + 1] + ENTER + tests[block[0] + 1 :]
    return tests


def declared_classes(tests: str) -> list[str]:
    """Top-level type names the tests declare (``Main`` first)."""
    mask = code_mask(tests)
    names = [m.group(1) for m in _TOP_LEVEL.finditer(tests) if mask[m.start()]]
    return ["Main", *sorted(set(names) - {"Main"})]


def main_class(program: str) -> tuple[str, str]:
    """(file name, class name) of a stdio program: the class run is the top-level class declaring
    ``static void main(``, a public one first (else the first public top-level class, else ``Main``);
    the file is named after the top-level public class when there is one (javac requires it)."""
    types = top_level_types(program)
    public = next((name for name, is_public, _ in types if is_public), None)
    with_main = sorted((not is_public, i, name) for i, (name, is_public, has_main) in enumerate(types) if has_main)
    run = with_main[0][2] if with_main else public or "Main"
    return f"{public or run}.java", run
