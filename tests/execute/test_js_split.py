"""JavaScript judged outside the candidate's process, through the real oracle: the protocol that
decided, the wire codec's round trips (node itself), the forms a program may take (ES modules,
CommonJS, classes), the reference's helpers in the judge, argument mutation, errors, async entry
points, random tests and calls that follow the candidate's results."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from execir.execute import Job, Limits, Oracle, OracleConfig
from execir.execute.attacks.adversarial_js import CASES, SPLIT_CASES
from execir.execute.jobs import IN_PROCESS, JUDGED_OUTSIDE
from execir.execute.runtimes import js_split
from execir.types import TestSuite, Verdict

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")

LIMITS = Limits(2.0, 8.0)
ADD = "const add = (a, b) => {\n  return a + b\n}\n"
ADD_TESTS = TestSuite("native", "const testAdd = () => {\n  console.assert(add(2, 3) === 5)\n  console.assert(add(-1, 1) === 0)\n}\ntestAdd()\n")


@pytest.fixture(scope="module")
def oracle():
    with Oracle(OracleConfig(workers=2, progress=False)) as running:
        yield running


def _judge(oracle, cases, reference, tests, entry=""):
    """Verdict and protocol of each program against ``tests`` with ``reference``."""
    suite = TestSuite("native", tests) if isinstance(tests, str) else tests
    jobs = [Job(program, suite, entry, LIMITS, reference=reference, language="js") for program in cases]
    return [(r.verdict, r.protocol, r.detail) for r in oracle.run(jobs)]


def test_entry_name():
    assert js_split.entry_name(ADD, "add") == "add"
    assert js_split.entry_name("const poly = (xs) => 0\nconst findZero = (xs) => 1\n", "") == "findZero"
    assert js_split.entry_name("const minSubArraySum = (xs) => 0\n", "minSubarraySum") == "minSubArraySum"
    assert js_split.entry_name("function f() {\n  const inner = 1\n}\n", "") == "f"
    assert js_split.entry_name("// nothing\n", "add") is None


def test_right_and_wrong_are_judged_outside(oracle):
    got = _judge(oracle, [ADD, ADD.replace("a + b", "a - b"), "const add = (a, b) => { throw new Error('no') }\n"], ADD, ADD_TESTS, "add")
    assert [(v, p) for v, p, _ in got] == [(Verdict.PASS, JUDGED_OUTSIDE), (Verdict.FAIL, JUDGED_OUTSIDE), (Verdict.FAIL, JUDGED_OUTSIDE)], got


def test_without_a_reference_or_calls_stays_in_process(oracle):
    no_calls = TestSuite("native", "console.assert(1 + 1 === 2)\n")
    jobs = [Job(ADD, ADD_TESTS, "add", LIMITS, language="js"), Job(ADD, no_calls, "add", LIMITS, reference=ADD, language="js")]
    assert [(r.verdict, r.protocol) for r in oracle.run(jobs)] == [(Verdict.PASS, IN_PROCESS), (Verdict.PASS, IN_PROCESS)]


def _node_round_trip(values_js: str) -> list[str]:
    """Each value of the JS array expression encoded, decoded and encoded again, by node running the
    codec: ``same`` when the second text equals the first, else both texts."""
    script = (
        js_split._PRELUDE
        + f"const values = {values_js};\n"
        + "for (const v of values) { const a = codec.encode(v); const b = codec.encode(codec.decodeNode(codec.parseLine(a)));"
        + " console.log(JSON.stringify(a === b ? 'same' : [a, b])) }\n"
    )
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_codec_round_trips_exactly():
    values = (
        "[0, -0, 1.5, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, NaN, Infinity, -Infinity, 123n, -(2n ** 70n), undefined, null, true,"
        " '', 'h\\u00e9llo \\ud83d\\ude00', '\\ud800', [1, [2, [3]]], [1, , 3], new Array(4), {b: 1, a: [undefined], 2: 'x', 1: 'y'},"
        " {['__proto__']: 5}, new Map([[1, 'a'], ['1', [2]]]), new Set([3, 1, 'x']), new Date(86400000), [new Map([[{k: 1}, new Set()]])]]"
    )
    assert _node_round_trip(values) == ["same"] * 26


def test_codec_refuses_what_it_cannot_carry():
    script = (
        js_split._PRELUDE
        + "const cyclic = []; cyclic.push(cyclic); let deep = []; for (let i = 0; i < 5000; i++) deep = [deep];\n"
        + "for (const v of [() => 1, Symbol('s'), cyclic, deep, {get x() { throw new Error('no') }}]) {"
        + " try { codec.encode(v); console.log('encoded') } catch (e) { console.log(e instanceof codec.Unencodable) } }\n"
        + 'for (const t of [\'{"$":"x"}\', \'{"$":"b","v":"1e3"}\', \'{"$":"n","v":"toString"}\', \'{"v":1}\', \'{"$":"h","n":-1,"v":[]}\']) {'
        + " try { codec.decodeNode(codec.parseLine(t)); console.log('decoded') } catch (e) { console.log(e instanceof codec.Malformed) } }\n"
    )
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["true"] * 10


def test_decoded_objects_are_plain():
    """A key named ``__proto__`` is an own property; the decoded object's prototype is Object's."""
    script = js_split._PRELUDE + (
        'const o = codec.decodeNode(codec.parseLine(\'{"$":"o","v":[["__proto__",{"$":"o","v":[["polluted",1]]}],["toJSON",2]]}\'));\n'
        "console.log(Object.getPrototypeOf(o) === Object.prototype, ({}).polluted === undefined, Object.keys(o).join(','), JSON.stringify(o))\n"
    )
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == 'true true __proto__,toJSON {"__proto__":{"polluted":1},"toJSON":2}'


def test_adversarial_cases_are_judged_outside(oracle):
    """Every native case with its reference: the expected verdict, decided outside the candidate's
    process (the attacks on the split protocol, the forms LLMs write, the in-process attacks)."""
    cases = [c for c in CASES if c.tests.kind == "native" and c.category not in ("time", "resources") and c.name != "js_net_connect"]
    jobs = [Job(c.program, c.tests, c.entry_point, LIMITS, reference=c.reference, language="js") for c in cases]
    results = oracle.run(jobs)
    wrong = [(c.name, r.verdict, r.detail) for c, r in zip(cases, results) if r.verdict not in c.expected or r.protocol != JUDGED_OUTSIDE]
    assert wrong == [] and len(cases) >= 80


def test_split_case_counts():
    attacks = [c for c in SPLIT_CASES if c.category != "control"]
    assert len(attacks) >= 20 and len(SPLIT_CASES) - len(attacks) >= 15
    assert all(Verdict.PASS not in c.expected for c in attacks)


def test_the_reference_helpers_decide_not_the_candidates(oracle):
    """A program that redefines the tests' helper (``poly``) passes in-process (the tests check the
    program against itself) and fails judged outside."""
    (case,) = [c for c in CASES if c.name == "js_split_shadow_reference_helper"]
    outside, inside = oracle.run(
        [
            Job(case.program, case.tests, case.entry_point, LIMITS, reference=case.reference, language="js"),
            Job(case.program, case.tests, "", LIMITS, language="js"),
        ]
    )
    assert (outside.verdict, outside.protocol, inside.verdict, inside.protocol) == (Verdict.FAIL, JUDGED_OUTSIDE, Verdict.PASS, IN_PROCESS)
