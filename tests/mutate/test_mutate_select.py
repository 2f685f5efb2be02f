"""order_candidates: seeded, hash-seed independent, operators and lines spread first."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from execir.mutate import generate_mutants, order_candidates

SOURCE = """def f(xs, n):
    if n < 0:
        return None
    total = 0
    for i in range(len(xs) - 1):
        if not xs[i] and xs[i + 1] > 2:
            total += xs[i] * 2
    return max(total, n) if total else min(1, 2)
"""

_SCRIPT = """
import json
from execir.mutate import generate_mutants, order_candidates
source = json.loads(input())
ordered = order_candidates(generate_mutants("t", source), seed=7)
print(json.dumps([[m.operator, m.edit.line, m.edit.col, m.edit.after] for m in ordered]))
"""


def _keys(seed: int, *, reverse: bool = False) -> list[tuple]:
    mutants = generate_mutants("t", SOURCE)
    if reverse:
        mutants = mutants[::-1]
    return [(m.operator, m.edit.line, m.edit.col, m.edit.after) for m in order_candidates(mutants, seed=seed)]


def test_same_seed_same_order_and_input_order_irrelevant() -> None:
    assert _keys(3) == _keys(3) == _keys(3, reverse=True)
    assert _keys(3) != _keys(4)


def test_order_is_a_permutation() -> None:
    mutants = generate_mutants("t", SOURCE)
    ordered = order_candidates(mutants, seed=0)
    assert sorted(m.text for m in ordered) == sorted(m.text for m in mutants)


_ORIGINAL_OPERATORS = (
    "any_all_swap",
    "arg_swap",
    "arith_swap",
    "augassign_swap",
    "bitwise_swap",
    "bool_swap",
    "compare_flip",
    "compare_swap",
    "const_decr",
    "const_incr",
    "const_zero_one",
    "guard_delete",
    "loop_control_swap",
    "method_swap",
    "min_max_swap",
    "not_insert",
    "not_remove",
    "off_by_one",
    "return_bool_flip",
    "unary_minus_remove",
)
"""A fixed operator set: with (many) more operators than lines, a prefix as long as the lines
are many is still spent on distinct operators, so the line spread is checked on this set."""


def test_prefix_covers_distinct_operators_then_lines() -> None:
    mutants = generate_mutants("t", SOURCE, operators=_ORIGINAL_OPERATORS)
    operators = {m.operator for m in mutants}
    for seed in range(5):
        ordered = order_candidates(mutants, seed=seed)
        prefix = ordered[: len(operators)]
        assert {m.operator for m in prefix} == operators
        lines = {m.edit.line for m in mutants}
        assert len({m.edit.line for m in ordered[: len(lines)]}) >= len(lines) - 2


def test_order_independent_of_hash_seed() -> None:
    outputs = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        result = subprocess.run(
            [sys.executable, "-c", _SCRIPT],
            input=json.dumps(SOURCE),
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1
    assert json.loads(outputs.pop()) == [list(key) for key in _keys(7)]


def test_empty_input() -> None:
    assert order_candidates([], seed=1) == []
