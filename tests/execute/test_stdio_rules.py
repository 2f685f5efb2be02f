"""stdio process rules through the real oracle: a stdio program is judged as ``python3 main.py``
under a pipe judge would be (threads joined, atexit run, exit()/quit() present, leftover processes
waited for and their output counted, stderr volume never decisive). See harness/driver.py."""

from __future__ import annotations

import pytest

from execir.execute import Oracle, OracleConfig
from execir.execute.attacks.adversarial_stdio import IDIOMS, SLOW_STDIO, STDIO_CASES, WRONG
from execir.execute.jobs import Job
from execir.execute.selftest import ALL_CASES as CASES
from execir.execute.selftest import LIMITS, run_cases
from execir.types import StdioCase, TestSuite, Verdict

FAST = tuple(c for c in STDIO_CASES if c.name not in SLOW_STDIO)
SLOW = tuple(c for c in STDIO_CASES if c.name in SLOW_STDIO)


def test_table_is_registered_and_sane():
    names = {c.name for c in CASES}
    assert {c.name for c in STDIO_CASES} <= names
    assert len(IDIOMS) >= 15 and all(c.expected == {Verdict.PASS} for c in IDIOMS)
    assert all(Verdict.PASS not in c.expected for c in WRONG)


@pytest.fixture(scope="module")
def fast_outcomes(oracle):
    return {o.case.name: o for o in run_cases(oracle, FAST)}


@pytest.mark.parametrize("case", FAST, ids=lambda c: c.name)
def test_stdio_rule(fast_outcomes, case):
    outcome = fast_outcomes[case.name]
    assert outcome.ok, (case.name, outcome.result.verdict, outcome.result.detail, outcome.result.stderr_tail[-300:])


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW, ids=lambda c: c.name)
def test_stdio_rule_slow(oracle, case):
    (outcome,) = run_cases(oracle, (case,))
    assert outcome.ok, (case.name, outcome.result.verdict, outcome.result.detail)


def _raw(oracle, program, stdin="3 4\n"):
    slot = oracle.slots[0]
    oracle._free.get()  # hold the slot while driving it directly
    try:
        return slot.run_main(Job(program, TestSuite("stdio", stdio_cases=(StdioCase(stdin, ""),)), "", LIMITS), stdin)
    finally:
        oracle._free.put(slot)


def test_exit_status_and_messages_like_python(oracle):
    raw = _raw(oracle, "import sys\nprint('x')\nsys.exit('bad input')\n")
    assert raw.exit_code == 1 and raw.stdout == b"x\n" and "bad input" in raw.stderr_tail and raw.main_exited
    raw = _raw(oracle, "raise KeyError('k')\n")
    assert raw.exit_code == 1 and "Traceback" in raw.stderr_tail and "main.py" in raw.stderr_tail and "driver" not in raw.stderr_tail
    raw = _raw(oracle, "import sys\nsys.stdout.write('a')\nraise SystemExit(7)\n")
    assert raw.exit_code == 7 and raw.stdout == b"a"
    raw = _raw(oracle, "import sys\nprint(__name__, sys.argv, __file__.endswith('/main.py'), input(), end='')\n")
    assert raw.exit_code == 0 and raw.stdout == b"__main__ ['main.py'] True 3 4"


def test_leftover_output_counts_and_leftover_is_reported(oracle):
    raw = _raw(
        oracle,
        "import os, sys, time\n"
        "if os.fork() == 0:\n"
        "    time.sleep(0.1)\n"
        "    print('late')\n"
        "    sys.stdout.flush()\n"
        "    os._exit(0)\n"
        "print('early', flush=True)\n",
    )
    assert raw.stdout == b"early\nlate\n" and raw.stdout_eof and not raw.leftover and raw.exit_code == 0
    raw = _raw(oracle, "import os, time\nprint(7, flush=True)\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(100)\n")
    assert raw.timeout and raw.leftover and raw.main_exited and raw.exit_code == 0 and raw.stdout == b"7\n"
    assert raw.survivors == 0


def test_stderr_volume_is_drained_not_capped(oracle):
    raw = _raw(oracle, "import sys\nfor _ in range(400):\n    sys.stderr.write('e' * 10000 + '\\n')\nprint(7)\n")
    assert not raw.capped and raw.stdout == b"7\n" and raw.stderr_bytes > 4_000_000 and len(raw.stderr_tail) <= 4096


@pytest.mark.parametrize("level", ["unshare", "uid", "rlimits"])
def test_idioms_at_other_levels(level):
    names = ("idiom_thread_without_join", "idiom_atexit_flush", "idiom_exit_builtin", "idiom_fork_child_prints_after_parent_exits")
    names += ("stdio_child_adds_wrong_line", "stdio_atexit_adds_wrong_line")
    cases = tuple(c for c in FAST if c.name in names)
    with Oracle(OracleConfig(workers=1, progress=False, isolation=level)) as oracle:
        bad = [(o.case.name, o.result.verdict, o.result.detail) for o in run_cases(oracle, cases) if not o.ok]
    assert not bad


@pytest.mark.parametrize(
    ("actual", "expected", "exact", "tokens"),
    [
        ("Yes\n", "Yes", True, True),
        ("Yes   \n\n\n", "Yes", True, True),
        (" Yes\n", "Yes", False, True),  # LiveCodeBench strips each line
        ("\nYes\n", "Yes", False, True),  # and the whole output
        ("1.0\n", "1", False, True),  # numbers compare as decimals
        ("1  2\n", "1 2", False, True),
        ("1.5 2\n", "1.50 2.0", False, True),
        ("Yes  No\n", "Yes No", False, False),  # words are not numbers: a differing line fails
        ("YES\n", "Yes", False, False),
        ("1\n2\n", "1 2", False, False),  # line structure counts
        ("1 2 3\n", "1 2", False, False),
        ("nan\n", "nan", True, True),
        ("0.333\n", "0.3333", False, False),  # no tolerance: LiveCodeBench has none either
        ("1e3\n", "1000", False, True),
    ],
)
def test_outputs_match_exact_and_livecodebench_tokens(actual: str, expected: str, exact: bool, tokens: bool) -> None:
    from execir.execute.decide import outputs_match

    assert outputs_match(actual, expected, "exact") is exact
    assert outputs_match(actual, expected, "tokens") is tokens


def test_stdio_compare_changes_the_cache_key_only_when_not_exact() -> None:
    from execir.execute.jobs import tests_hash
    from execir.types import StdioCase, TestSuite

    cases = (StdioCase("1\n", "2\n"),)
    plain = TestSuite(kind="stdio", stdio_cases=cases)
    assert tests_hash(plain) == tests_hash(TestSuite(kind="stdio", stdio_cases=cases, stdio_compare="exact"))
    assert tests_hash(plain) != tests_hash(TestSuite(kind="stdio", stdio_cases=cases, stdio_compare="tokens"))


def test_stdout_cap_follows_the_expected_output() -> None:
    from execir.execute.limits import STDOUT_MULTIPLE

    assert LIMITS.for_expected_output("7\n") is LIMITS  # small outputs keep the floor
    big = "x" * 2_000_000
    assert LIMITS.for_expected_output(big).output_kb == -(-STDOUT_MULTIPLE * 2_000_000 // 1024)
    assert LIMITS.for_expected_output(big).cpu_seconds == LIMITS.cpu_seconds


def test_large_correct_output_is_over_the_floor_cap():
    """The large controls PASS; driven with the floor cap alone, the same program is cut off (what
    the cap that follows the expected output fixes). An oracle of its own: the slot is driven directly."""
    from execir.execute import Limits
    from execir.execute.attacks.adversarial_stdio import LARGE, LARGE_OUTPUT

    (case,) = LARGE.stdio_cases
    assert len(case.output.encode()) > LIMITS.output_kb << 10
    control = tuple(c for c in LARGE_OUTPUT if c.language == "python")
    with Oracle(OracleConfig(workers=1, progress=False)) as own:
        bad = [(o.case.name, o.result.verdict, o.result.detail) for o in run_cases(own, control) if not o.ok]
        raw = own.slots[0].run_main(Job(LARGE_OUTPUT[0].program, LARGE, "", Limits(5.0, 30.0)), case.input)
    assert not bad
    assert raw.capped, (raw.timeout, raw.exit_code, len(raw.stdout))
