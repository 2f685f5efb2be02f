"""generate_mutants: single spliced edits that parse, differ, dedupe, and leave strings alone."""

from __future__ import annotations

import ast

from execir.languages.python.operators import FUNCTIONS as OPERATORS
from execir.mutate import generate_mutants, token_edit_distance

SOURCE = '''import math


def clamp(values: list[int], low: int = 0) -> list[int]:
    """Docstring with 1 < 2 and x + 1 and range(3), not touched."""
    if not values:
        return []
    out = []
    for i in range(1, len(values)):
        v = values[i - 1] * 2 + low  # café ≤ comment
        if v > 10 and v != 3:
            out.append(max(v, low))
        elif v is None:
            continue
        label = f"{i + 1} é {v * 3}"
        low += math.floor(v / 2)
    return out[:-1] if out else [0]
'''


def replaced(source: str, line: int, col: int, before: str, after: str) -> str:
    lines = source.split("\n")
    start = sum(len(text) + 1 for text in lines[: line - 1]) + col
    assert source[start : start + len(before)] == before
    return source[:start] + after + source[start + len(before) :]


def test_every_mutant_is_one_spliced_edit_that_parses() -> None:
    mutants = generate_mutants("t/0", SOURCE)
    assert len(mutants) > 40
    for mutant in mutants:
        edit = mutant.edit
        assert mutant.task_id == "t/0" and mutant.operator in OPERATORS
        assert mutant.text == replaced(SOURCE, edit.line, edit.col, edit.before, edit.after)
        assert mutant.text != SOURCE
        ast.parse(mutant.text)
        assert mutant.edit_distance == token_edit_distance(SOURCE, mutant.text)


def test_texts_are_unique_and_order_is_operator_then_position() -> None:
    mutants = generate_mutants("t/0", SOURCE)
    assert len({m.text for m in mutants}) == len(mutants)
    names = list(OPERATORS)
    keys = [(names.index(m.operator), m.edit.line, m.edit.col) for m in mutants]
    assert keys == sorted(keys)
    assert generate_mutants("t/0", SOURCE) == mutants


def test_docstrings_strings_fstrings_and_annotations_untouched() -> None:
    docstring = '"""Docstring with 1 < 2 and x + 1 and range(3), not touched."""'
    fstring = 'f"{i + 1} é {v * 3}"'
    for mutant in generate_mutants("t/0", SOURCE):
        removed = mutant.edit.before  # a deleted statement takes its strings and comment with it, whole
        assert docstring in mutant.text and (fstring in mutant.text or fstring in removed)
        assert "def clamp(values: list[int], low: int = " in mutant.text
        assert "-> list[int]:" in mutant.text
        assert "# café ≤ comment" in mutant.text or "# café ≤ comment" in removed


def test_non_ascii_lines_are_spliced_by_character() -> None:
    mutants = [m for m in generate_mutants("t/0", SOURCE) if m.edit.line == 10]
    assert {m.operator for m in mutants} >= {"arith_swap", "const_incr", "binary_operand_delete"}
    star = next(m for m in mutants if m.operator == "arith_swap" and m.edit.before == "*")
    assert star.edit.col == SOURCE.split("\n")[9].index("*")
    assert "values[i - 1] / 2 + low  # café ≤ comment" in star.text


def test_mutants_that_do_not_compile_are_dropped() -> None:
    source = "def f(xs):\n    for x in xs:\n        if x:\n            break\n    return xs\n"
    mutants = generate_mutants("t", source)
    assert any(m.operator == "loop_control_swap" for m in mutants)
    assert all("continue" not in m.text.split("for")[0] for m in mutants)


def test_source_without_candidates() -> None:
    assert generate_mutants("t", "import os\n") == []


def test_crlf_and_multibyte_lines() -> None:
    source = "def f(ü, n):\r\n    s = 'ß→'; return ü[n] < n + 1\r\n"
    mutants = generate_mutants("t", source)
    assert mutants
    for mutant in mutants:
        edit = mutant.edit
        assert mutant.text == replaced(source, edit.line, edit.col, edit.before, edit.after)
        assert ("'ß→'" in mutant.text or "'ß→'" in edit.before) and mutant.text.count("\r\n") == 2
