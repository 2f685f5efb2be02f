"""``execir doctor``: its verdict on each probe, its table, and the command on this machine (real
oracle, real toolchains), including a language that is not ready."""

from __future__ import annotations

import json

import pytest

from execir.cli import main
from execir.doctor import checks
from execir.doctor.checks import GAP, OK, Check, Report, check_extras, probe_check
from execir.doctor.probes import PROBES
from execir.doctor.render import table
from execir.execute.jobs import IN_PROCESS, JUDGED_OUTSIDE, ExecResult
from execir.execute.runtimes import LANGUAGES, runtime
from execir.execute.runtimes.base import not_ready
from execir.types import Verdict


def _result(verdict: Verdict, protocol: str = JUDGED_OUTSIDE, detail: str = "") -> ExecResult:
    return ExecResult(verdict, 0.1, 0.2, None, detail, "", "bwrap", False, protocol)


def test_every_language_has_a_passing_and_a_failing_probe() -> None:
    for language in LANGUAGES:
        expected = {p.expected for p in PROBES if p.language == language}
        assert {Verdict.PASS, Verdict.FAIL} <= expected, language
    assert all(p.fix for p in PROBES)
    assert {p.name for p in PROBES if p.language == "rust"} >= {"the crate rand", "the crate regex", "the crate md5"}


def test_probe_check_wants_the_verdict_judged_outside() -> None:
    probe = next(p for p in PROBES if p.language == "rust" and "regex" in p.name)
    assert probe_check(probe, _result(Verdict.PASS)).status == OK
    wrong = probe_check(probe, _result(Verdict.ERROR, detail="error[E0432]: unresolved import `regex`"))
    assert wrong.status == GAP and wrong.fix == "librust-regex+default-dev" and "E0432" in wrong.detail and "got ERROR" in wrong.detail
    inside = probe_check(probe, _result(Verdict.PASS, IN_PROCESS))
    assert inside.status == GAP and "not judged outside" in inside.detail


def test_table_lists_each_gap_with_what_to_install() -> None:
    report = Report(
        (
            Check("sandbox", "isolation level", OK, "bwrap"),
            Check(
                "language",
                "rust: toolchain",
                GAP,
                "rust: not ready: the crates\n  last lines:\n    error: no matching package named `aho-corasick`",
                "librust-regex+default-dev",
            ),
            Check("extra", "faiss", "absent", "faiss not importable", "pip install 'execir[index]'", required=False),
        ),
        "bwrap",
    )
    text = table(report)
    assert not report.ok and len(report.gaps) == 1
    assert "1 missing" in text and "- rust: toolchain: install librust-regex+default-dev" in text and "aho-corasick" in text
    assert "optional, not installed: faiss (pip install 'execir[index]')" in text
    assert json.loads(json.dumps(report.as_json()))["gaps"] == 1


def test_a_missing_extra_is_a_gap_only_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    real = checks.importlib.util.find_spec
    monkeypatch.setattr(checks.importlib.util, "find_spec", lambda name: None if name == "faiss" else real(name))
    faiss = next(c for c in check_extras() if c.name.startswith("faiss"))
    assert faiss.status == "absent" and not faiss.gap and faiss.fix == "pip install 'execir[index]'"


def test_doctor_on_this_machine_passes_a_language_and_fails_one_not_ready(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--languages", "python,ruby", "--no-extras", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    names = {c["name"]: c["status"] for c in report["checks"]}
    assert names["ruby: a correct program passes"] == OK and names["ruby: a wrong program fails"] == OK and report["ok"]

    class Broken:
        def discover(self) -> None:  # the ruby runtime's, replaced
            raise not_ready("ruby", "a piece", ["ruby-piece"], ["make-piece"], "line 1\nthe last line")

    monkeypatch.setattr(type(runtime("ruby")), "discover", Broken.discover)
    assert main(["doctor", "--languages", "python,ruby", "--no-extras"]) == 1
    out = capsys.readouterr()
    assert "ruby: toolchain: install ruby" in out.out and "the last line" in out.out and "ruby-piece" in out.out
    assert "ruby: a correct program passes" not in out.out  # a language that is not ready runs nothing
