"""Problem-disjoint seeded splits: sha256 order, largest-remainder sizes, no empty split from 3 problems."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections import Counter

import pytest

from execir.dataset.records import SPLITS
from execir.dataset.splits import DEFAULT_FRACTIONS, parse_fractions, split_problems
from execir.errors import ExecIRError

Fractions = tuple[float, float, float]


def sizes(n: int, fractions: Fractions = DEFAULT_FRACTIONS, seed: int = 0) -> tuple[int, int, int]:
    counts = Counter(split_problems([f"P/{i}" for i in range(n)], seed=seed, fractions=fractions).assignment.values())
    return counts["train"], counts["dev"], counts["test"]


@pytest.mark.parametrize(
    ("n", "fractions", "expected"),
    [
        (0, DEFAULT_FRACTIONS, (0, 0, 0)),
        (1, DEFAULT_FRACTIONS, (1, 0, 0)),
        (2, DEFAULT_FRACTIONS, (1, 0, 1)),  # 1.0, 0.2, 0.8: the remainder goes to test
        (3, DEFAULT_FRACTIONS, (1, 1, 1)),  # every split non-empty from three problems
        (7, DEFAULT_FRACTIONS, (3, 1, 3)),  # 3.5, 0.7, 2.8 -> 3, 0, 2 + the two largest remainders
        (10, DEFAULT_FRACTIONS, (5, 1, 4)),
        (164, DEFAULT_FRACTIONS, (82, 16, 66)),  # 82, 16.4, 65.6
        (3, (0.98, 0.01, 0.01), (1, 1, 1)),
        (4, (1.0, 0.0, 0.0), (4, 0, 0)),  # a zero fraction stays empty
        (5, (0.5, 0.5, 0.0), (3, 2, 0)),
        (3, (0.0, 0.0, 1.0), (0, 0, 3)),
        (10, (0.34, 0.33, 0.33), (4, 3, 3)),
        (100, (0.29, 0.01, 0.7), (29, 1, 70)),  # 0.29 * 100 is 28.999...: still 29
    ],
)
def test_sizes_by_largest_remainder(n: int, fractions: Fractions, expected: tuple[int, int, int]) -> None:
    assert sizes(n, fractions) == expected


@pytest.mark.parametrize("fractions", [DEFAULT_FRACTIONS, (0.8, 0.1, 0.1), (0.98, 0.01, 0.01), (0.6, 0.0, 0.4), (1 / 3, 1 / 3, 1 / 3)])
@pytest.mark.parametrize("n", [3, 4, 5, 8, 13, 50, 333])
def test_every_problem_in_one_split_and_no_positive_split_empty(n: int, fractions: Fractions) -> None:
    got = sizes(n, fractions, seed=n)
    assert sum(got) == n
    for size, fraction in zip(got, fractions):
        assert (size > 0) == (fraction > 0)
        if all(n * f >= 1 or f == 0 for f in fractions):  # no split forced non-empty: within one of the exact share
            assert abs(size - n * fraction) < 1


def test_order_is_sha256_of_seed_and_problem() -> None:
    problems = [f"HumanEval/{i}" for i in range(20)]
    plan = split_problems(problems, seed=5)
    order = sorted(problems, key=lambda p: hashlib.sha256(f"5:{p}".encode()).hexdigest())
    assert [plan.assignment[p] for p in order] == ["train"] * 10 + ["dev"] * 2 + ["test"] * 8


def test_input_order_and_duplicates_do_not_matter() -> None:
    problems = [f"P/{i}" for i in range(30)]
    plan = split_problems(problems, seed=3)
    assert split_problems(list(reversed(problems)) + problems[:5], seed=3).assignment == plan.assignment
    assert set(plan.assignment) == set(problems)


def test_seed_changes_the_assignment_but_not_the_sizes() -> None:
    problems = [f"P/{i}" for i in range(40)]
    a, b = split_problems(problems, seed=1), split_problems(problems, seed=2)
    assert a.assignment != b.assignment
    assert Counter(a.assignment.values()) == Counter(b.assignment.values())


def test_independent_of_python_hash_seed() -> None:
    code = "from execir.dataset.splits import split_problems; print(sorted(split_problems([f'P/{i}' for i in range(25)], seed=9).assignment.items()))"
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": hs, "PATH": ""}).stdout
        for hs in ("0", "1", "12345")
    }
    assert len(outputs) == 1


def test_plan_json() -> None:
    plan = split_problems([f"P/{i}" for i in range(10)], seed=4)
    data = plan.to_json()
    assert data["seed"] == 4
    assert data["fractions"] == dict(zip(SPLITS, DEFAULT_FRACTIONS))
    assert data["problems"] == {"train": 5, "dev": 1, "test": 4}
    assert "sha256" in str(data["method"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.5,0.1,0.4", (0.5, 0.1, 0.4)),
        ("1,0,0", (1.0, 0.0, 0.0)),
        (" 0.6 , 0.2 , 0.2 ", (0.6, 0.2, 0.2)),
        ("0.3333333,0.3333333,0.3333334", (0.3333333, 0.3333333, 0.3333334)),
    ],
)
def test_parse_fractions(text: str, expected: Fractions) -> None:
    assert parse_fractions(text) == pytest.approx(expected)


@pytest.mark.parametrize("text", ["0.5,0.5", "0.5,0.1,0.4,0", "a,b,c", "0.5,0.6,-0.1", "0.5,0.1,0.3", "", "0.5;0.1;0.4"])
def test_parse_fractions_rejects(text: str) -> None:
    with pytest.raises(ExecIRError, match="--splits"):
        parse_fractions(text)
