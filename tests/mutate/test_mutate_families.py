"""Operator families, ``--operators`` specs and the family-weighted selection order."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from execir.errors import ExecIRError
from execir.languages import FAMILIES, FAMILY_WEIGHTS, get_language, select_operators
from execir.languages.base import OperatorSpec
from execir.mutate.select import operator_weights, order_candidates, weighted_order
from execir.types import Edit, Mutant


def test_every_python_operator_has_a_known_family() -> None:
    python = get_language("python")
    assert python.operator_names and all(op.family in FAMILIES for op in python.operators)
    assert set(FAMILY_WEIGHTS) == set(FAMILIES)


def test_unknown_family_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown family"):
        OperatorSpec("x", "nonsense", lambda program: ())


def test_operator_specs_include_exclude_and_families() -> None:
    python = get_language("python")
    assert select_operators(python, None) == python.operator_names
    assert select_operators(python, "arith_swap") == ("arith_swap",)
    only_function = select_operators(python, "function")
    assert only_function and all(python.family_of(name) == "function" for name in only_function)
    without = select_operators(python, "-function,-arith_swap")
    assert not set(without) & set(only_function) and "arith_swap" not in without
    assert len(without) == len(python.operator_names) - len(only_function) - 1
    with pytest.raises(ExecIRError, match="families: operator"):
        select_operators(python, "bogus")


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ExecIRError, match="unknown language 'cobol'"):
        get_language("cobol")


def test_operator_weights_share_a_family_weight() -> None:
    families = {"a": "value", "b": "value", "c": "function"}
    weights = operator_weights(["a", "b", "c"], families, {"value": 3.0, "function": 1.0})
    assert weights == {"a": 1.5, "b": 1.5, "c": 1.0}


def test_weighted_order_prefers_heavy_names_and_depends_only_on_the_seed() -> None:
    firsts = Counter(weighted_order(["heavy", "light"], {"heavy": 9.0, "light": 1.0}, random.Random(seed))[0] for seed in range(2000))
    assert 0.85 < firsts["heavy"] / 2000 < 0.95  # P(heavy first) = 9 / 10
    assert weighted_order(["b", "a"], {}, random.Random(3)) == weighted_order(["a", "b"], {}, random.Random(3))


def _mutant(operator: str, line: int) -> Mutant:
    return Mutant("t", operator, Edit(line, 0, "x", "y"), f"{operator}{line}", 1)


def test_order_visits_every_operator_before_repeating_one() -> None:
    mutants = [_mutant(op, line) for op in ("a", "b", "c") for line in range(1, 4)]
    families = {"a": "value", "b": "function", "c": "missing"}
    ordered = order_candidates(mutants, seed=1, families=families)
    assert {m.operator for m in ordered[:3]} == {"a", "b", "c"}
    assert sorted(ordered, key=lambda m: m.text) == sorted(mutants, key=lambda m: m.text)
    assert order_candidates(list(reversed(mutants)), seed=1, families=families) == ordered
