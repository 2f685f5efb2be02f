"""Probe inputs for agreement among passing candidates, and the judge-side fingerprint helper."""

from __future__ import annotations

import ast

import pytest

from execir.rerank.execution.examples import extract_examples
from execir.rerank.execution.probes import BITS, FINGERPRINT, probe_arguments, probe_asserts


def test_probes_edit_one_argument_and_never_repeat_an_example() -> None:
    examples = extract_examples(">>> clip([3, 1, 2], 2)\n[2, 1, 2]\n>>> clip([5], 0)\n[0]\n")
    probes = probe_arguments(examples, 8)
    assert len(probes) == 8 == len(set(probes))
    assert "[3, 1, 2], 2" not in probes and "[5], 0" not in probes
    for text in probes:
        args = ast.literal_eval(f"({text},)")
        assert len(args) == 2 and isinstance(args[0], list) and type(args[1]) is int
    assert probes == probe_arguments(examples, 8)  # deterministic
    assert probes[0] == "[2, 1, 3], 2"  # round-robin: the first edit of the first example's first argument
    assert probes[1] == "[], 0"  # ... then of the second example (reversing [5] changes nothing)


def test_probes_keep_types_and_skip_non_literal_calls() -> None:
    examples = extract_examples('>>> f("ab", True, 1.5, key=(1, 2))\n1\n>>> round(g(2), 1)\n0.5\n')
    probes = probe_arguments(examples, 40)
    values = [ast.literal_eval(f"({p.replace('key=', '')},)") for p in probes]
    assert all((type(v[0]), type(v[1]), type(v[2]), type(v[3])) == (str, bool, float, tuple) for v in values)
    assert any(v[1] is False for v in values) and any(v[0] == "ba" for v in values)
    assert probe_arguments(extract_examples("no examples here"), 8) == ()


def test_probes_do_not_grow_values() -> None:
    examples = extract_examples(">>> fib(30)\n832040\n")
    assert {int(p) for p in probe_arguments(examples, 8)} <= {31, 29, -30, 0, 1}


def test_probe_asserts_are_one_per_bit() -> None:
    asserts = probe_asserts("f", ("1", "2, 3"))
    assert len(asserts) == 2 * BITS
    assert asserts[0] == "assert _execir_bit(0, 0, lambda: f(1))" and asserts[-1] == f"assert _execir_bit(1, {BITS - 1}, lambda: f(2, 3))"


def fingerprint_of(function: object, arguments: tuple[str, ...]) -> tuple[bool, ...]:
    """What the judge computes: each assert's outcome, with ``f`` standing for the candidate."""
    namespace: dict[str, object] = {"f": function}
    exec(FINGERPRINT, namespace)
    outcomes = []
    for text in probe_asserts("f", arguments):
        try:
            exec(text, namespace)
            outcomes.append(True)
        except AssertionError:
            outcomes.append(False)
    return tuple(outcomes)


@pytest.mark.parametrize(
    ("left", "right", "same"),
    [
        (lambda x: x + 1, lambda x: 1 + x, True),
        (lambda x: x * 0.1 * 3, lambda x: x * 0.3, True),  # floats to 8 significant digits
        (lambda x: {x, x + 1, "a"}, lambda x: {"a", x + 1, x}, True),  # sets without order
        (lambda x: {"b": x, "a": 1}, lambda x: {"a": 1, "b": x}, True),
        (lambda x: iter([x, x]), lambda x: iter([x, x]), True),  # iterators by their items
        (lambda x: [x], lambda x: (x,), False),  # a list is not a tuple
        (lambda x: x, lambda x: float(x), False),  # 3 is not 3.0
        (lambda x: 1 // (x - x), lambda x: [][x], False),  # the exception type counts
        (lambda x: 1 // (x - x), lambda x: x // 0, True),
        (lambda x: x + 1, lambda x: x - 1, False),
    ],
)
def test_fingerprints(left: object, right: object, same: bool) -> None:
    arguments = ("1", "2", "-7")
    assert (fingerprint_of(left, arguments) == fingerprint_of(right, arguments)) is same


def test_a_probe_calls_the_candidate_once() -> None:
    calls: list[int] = []

    def counted(x: int) -> int:
        calls.append(x)
        return x

    fingerprint_of(counted, ("1", "2"))
    assert calls == [1, 2]
