"""The public API: records, order, distinctness, validity, selection and hash-seed independence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from execir.errors import ExecIRError
from execir.languages import ParseError, get_language
from execir.rewrite import Rewrite, rewrites, rule_names, select_rewrites

PROGRAM = textwrap.dedent('''\
    def f(xs, n):
        """Sum the positive items below n."""
        total = 0
        count = 0
        for i in range(len(xs)):
            if not (xs[i] <= 0 or xs[i] >= n):
                total += xs[i] * 2
        kept = [x for x in xs if x == n]
        return total + 1, count, kept
    ''')


def test_python_rule_names_are_stable() -> None:
    assert rule_names("python") == (
        "comprehension_to_loop",
        "de_morgan",
        "for_to_while",
        "loop_to_comprehension",
        "rename_local",
        "reorder_statements",
        "swap_commutative",
    )


def test_rewrites_are_distinct_valid_single_rule_edits_in_rule_order() -> None:
    found = rewrites(PROGRAM, "python", entry_point="f")
    texts = [r.text for r in found]
    assert len(texts) == len(set(texts)) and PROGRAM not in texts
    assert [r.rule for r in found] == sorted(r.rule for r in found)
    assert all(get_language("python").is_valid(t) for t in texts)
    assert {r.rule for r in found} >= {"comprehension_to_loop", "de_morgan", "for_to_while", "rename_local", "reorder_statements", "swap_commutative"}
    assert found == rewrites(PROGRAM, "python", entry_point="f")


def test_entry_point_is_never_used_as_a_new_name() -> None:
    text = "def result(xs):\n    out = 1\n    return out\n"
    (renamed,) = [r.text for r in rewrites(text, "python", entry_point="result") if r.rule == "rename_local"]
    assert renamed.startswith("def result(xs):\n") and renamed.count("result") == 1


def test_errors() -> None:
    with pytest.raises(ParseError):
        rewrites("def f(:\n", "python", entry_point="f")
    with pytest.raises(ExecIRError):
        rewrites("x", "cobol", entry_point="f")


def test_select_spreads_over_rules_and_depends_only_on_the_seed() -> None:
    found = rewrites(PROGRAM, "python", entry_point="f")
    rules = {r.rule for r in found}
    picked = select_rewrites(found, limit=len(rules), seed=3)
    assert {r.rule for r in picked} == rules
    assert picked == select_rewrites(list(reversed(found)), limit=len(rules), seed=3)
    assert select_rewrites(found, limit=100, seed=0) != [] and len(select_rewrites(found, limit=100, seed=0)) == len(found)
    assert select_rewrites(found, limit=0, seed=0) == []
    seeds = {tuple(r.text for r in select_rewrites(found, limit=3, seed=s)) for s in range(8)}
    assert len(seeds) > 1
    with pytest.raises(ValueError):
        select_rewrites(found, limit=-1, seed=0)


def test_select_keeps_duplicates_out() -> None:
    one = Rewrite("a", "x")
    assert select_rewrites([one, one, Rewrite("b", "y")], limit=5, seed=1) in ([one, Rewrite("b", "y")], [Rewrite("b", "y"), one])


_SCRIPT = """
import json, sys
from execir.rewrite import rewrites, select_rewrites
program = sys.stdin.read()
found = rewrites(program, "python", entry_point="f")
picked = select_rewrites(found, limit=4, seed=7)
print(json.dumps([[r.rule, r.text] for r in found] + [["picked", r.text] for r in picked]))
"""


def test_hash_seed_independence() -> None:
    outputs = []
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", _SCRIPT], input=PROGRAM, capture_output=True, text=True, env=env, check=True)
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1]
