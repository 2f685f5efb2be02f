"""Every adversarial case through the real oracle: the verdict AND the host state afterwards.

Time-category cases (each costs a CPU or wall budget) are marked slow; the rest run in one
parallel batch in the fast suite.
"""

from __future__ import annotations

import os

import pytest

from execir.execute import Oracle, OracleConfig
from execir.execute.attacks.adversarial import CANARY_ENV, POISON_PROBE
from execir.execute.attacks.adversarial_stdio import SLOW_STDIO
from execir.execute.sandbox import hostcheck
from execir.execute.selftest import ALL_CASES as CASES
from execir.execute.selftest import ALL_POISONERS, abstract_listener, canary_files, loopback_listener, run_cases
from execir.types import Verdict

SLOW = {
    "infinite_loop",
    "sleep_forever",
    "sigterm_ignoring_loop",
    "fork_bomb",
    "infinite_loop_at_import",
    "memory_hog_gradual",
    "output_flood",
    "stderr_flood",
    "stdio_trailing_newline_flood",
    "hash_collision_result",
    # other languages: each spends a budget (CPU, wall or a compile budget)
    "cpp_compile_time_cpu_bomb",
    "cpp_compile_time_memory_bomb",
    "cpp_fork_bomb",
    "cpp_thread_bomb",
    "cpp_memory_bomb",
    "cpp_setsid_daemon",
    "cpp_infinite_loop",
    "go_goroutine_bomb",
    "go_memory_bomb",
    "go_infinite_loop",
    "go_daemon_process",
    "go_forkexec_daemon",
    "js_infinite_loop",
    "js_infinite_loop_in_call",
    "js_spawn_bomb",
    "js_memory_bomb",
    "js_output_flood",
    "js_net_connect",
    "ruby_infinite_loop",
    "ruby_fork_bomb",
    "ruby_memory_bomb",
    "java_infinite_loop",
} | SLOW_STDIO
FAST_CASES = tuple(c for c in CASES if c.name not in SLOW)
SLOW_CASES = tuple(c for c in CASES if c.name in SLOW)


def test_suite_is_large_and_covers_the_categories():
    assert len(CASES) >= 40
    assert {c.category for c in CASES} >= {"time", "resources", "exit", "tamper", "forged_output", "isolation", "stdio", "control", "determinism"}
    for case in CASES:
        if case.category not in ("control", "determinism") and case.name not in (
            "read_canary_env",
            "stdio_correct",
            "stdio_crlf_trailing_space",
            "read_proc_of_parent",
            "stdio_crlf_lines_control",
        ):
            assert Verdict.PASS not in case.expected, case.name


@pytest.mark.parametrize(("language", "attacks"), [("cpp", 30), ("java", 40), ("js", 15), ("go", 18), ("ruby", 8)])
def test_every_language_has_its_attacks_and_controls(language, attacks):
    """Each language's cases run here with the rest (verdict and host state), not again in its own file."""
    cases = [c for c in CASES if c.language == language]
    controls = [c for c in cases if Verdict.PASS in c.expected]
    assert len(cases) - len(controls) >= attacks and len(controls) >= 3


def _run(cases):
    os.environ[CANARY_ENV] = "execir-canary-value"
    before = set(canary_files())
    listener = abstract_listener()
    try:
        with Oracle(OracleConfig(workers=2, progress=False)) as oracle:
            outcomes = run_cases(oracle, cases)
            baseline = {pid for slot in oracle.slots for pid in slot.baseline}
            live = [p for p in hostcheck.processes(set(oracle.uids)) if p not in baseline]
            reliability = oracle.reliability()
    finally:
        if listener is not None:
            listener.close()
    after_close = hostcheck.processes(set(oracle.uids))
    return {o.case.name: o for o in outcomes}, {
        "new_canaries": sorted(set(canary_files()) - before),
        "live_during": live,
        "live_after_close": after_close,
        "reliability": reliability,
        "listener": loopback_listener(),
    }


@pytest.fixture(scope="module")
def fast_run():
    return _run(FAST_CASES)


@pytest.fixture(scope="module")
def slow_run():
    return _run(SLOW_CASES)


@pytest.mark.parametrize("case", FAST_CASES, ids=lambda c: c.name)
def test_fast_case_verdict(fast_run, case):
    result = fast_run[0][case.name].result
    assert result.verdict in case.expected, result


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW_CASES, ids=lambda c: c.name)
def test_slow_case_verdict(slow_run, case):
    result = slow_run[0][case.name].result
    assert result.verdict in case.expected, result


def _host_state_is_clean(state):
    assert state["new_canaries"] == []
    assert state["live_during"] == []
    assert state["live_after_close"] == []
    assert state["listener"] is False
    assert state["reliability"]["surviving_processes"] == 0
    assert state["reliability"]["host_artefacts"] in (0, None)
    assert state["reliability"]["launcher_errors"] == 0


def test_fast_cases_leave_the_host_clean(fast_run):
    _host_state_is_clean(fast_run[1])


@pytest.mark.slow
def test_slow_cases_leave_the_host_clean(slow_run):
    _host_state_is_clean(slow_run[1])


def test_canary_env_not_visible_to_candidates(fast_run):
    assert fast_run[0]["read_canary_env"].result.verdict is Verdict.PASS


@pytest.mark.parametrize("case", ALL_POISONERS, ids=lambda c: c.name)
def test_poisoner_does_not_reach_the_next_candidate(poison_oracle, case):
    """Same slot, one after the other: whatever the first program did to the slot (server memory,
    server rlimits or scheduling, SysV shm, files), the correct program after it still PASSes."""
    from execir.execute import Job
    from execir.execute.selftest import LIMITS, PROBE_LIMITS

    (first,) = poison_oracle.run([Job(case.program, case.tests, case.entry_point, LIMITS)])
    (probe,) = poison_oracle.run([Job(POISON_PROBE + f"# after {case.name}\n", case.tests, "add", PROBE_LIMITS)])
    assert first.verdict in case.expected, first
    assert probe.verdict is Verdict.PASS, probe
    assert poison_oracle.stats["launcher_errors"] == 0


@pytest.fixture(scope="module")
def poison_oracle():
    with Oracle(OracleConfig(workers=1, progress=False)) as oracle:
        yield oracle
        assert oracle.reliability()["surviving_processes"] == 0
