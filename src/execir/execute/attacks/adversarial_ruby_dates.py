"""Ruby ``Date`` and ``Time`` values across the judged-outside wire (``{"date"}``, ``{"t"}`` in
harness ``ruby_wire.rb``): results and arguments keep their day, instant, offset and UTC flag, so
correct programs returning them pass and programs off by a day, a second or an offset fail.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, P = Verdict.FAIL, Verdict.PASS

NEXT_REF = 'require "date"\n\ndef next_day(d)\n  d + 1\nend\n'
NEXT_TESTS = TestSuite(
    "native",
    'require "date"\nraise "1" unless next_day(Date.new(2024, 2, 28)) == Date.new(2024, 2, 29)\n'
    'raise "2" unless next_day(Date.new(2023, 12, 31)) == Date.new(2024, 1, 1)\nraise "3" unless next_day(Date.new(2024, 3, 1)).wday == 6\n',
)
LATER_REF = "def later(t, s)\n  t + s\nend\n"
LATER_TESTS = TestSuite(
    "native",
    'a = Time.utc(2020, 1, 2, 3, 4, 5)\nraise "1" unless later(a, 60) == Time.utc(2020, 1, 2, 3, 5, 5)\nraise "2" unless later(a, 60).utc?\n'
    'b = Time.new(2021, 5, 6, 7, 8, 9, "+05:30")\nraise "3" unless later(b, 1).utc_offset == 19800\nraise "4" unless later(b, 0.5).to_r == b.to_r + 0.5r\n',
)
REFERENCES = {NEXT_TESTS.code: ("next_day", NEXT_REF), LATER_TESTS.code: ("later", LATER_REF)}


def _case(name: str, category: str, program: str, expected: Verdict, tests: TestSuite) -> Case:
    entry, reference = REFERENCES[tests.code]
    return make_case(f"ruby_date_{name}", category, program, expected, tests, entry_point=entry, language="ruby", reference=reference)


CASES: tuple[Case, ...] = (
    _case("control_next_day", "control", 'require "date"\n\ndef next_day(d)\n  d.next_day\nend\n', P, NEXT_TESTS),
    _case("control_next_day_by_jd", "control", 'require "date"\n\ndef next_day(d)\n  Date.jd(d.jd + 1)\nend\n', P, NEXT_TESTS),
    _case("control_later", "control", LATER_REF, P, LATER_TESTS),
    _case(
        "control_later_by_rational",
        "control",
        "def later(t, s)\n  Time.at(t.to_r + s, in: t.utc_offset).then { |x| t.utc? ? x.utc : x }\nend\n",
        P,
        LATER_TESTS,
    ),
    _case("control_later_plus_zero", "control", "def later(t, s)\n  (t + 0) + s\nend\n", P, LATER_TESTS),
    _case("skips_leap_day", "split", 'require "date"\n\ndef next_day(d)\n  d.month == 2 && d.day == 28 ? d + 2 : d + 1\nend\n', F, NEXT_TESTS),
    _case("next_month", "split", 'require "date"\n\ndef next_day(d)\n  d >> 1\nend\n', F, NEXT_TESTS),
    _case("loses_utc", "split", "def later(t, s)\n  (t + s).localtime('+00:00')\nend\n", F, LATER_TESTS),
    _case("loses_offset", "split", "def later(t, s)\n  (t + s).utc\nend\n", F, LATER_TESTS),
    _case("rounds_seconds", "split", "def later(t, s)\n  t + s.round\nend\n", F, LATER_TESTS),
)
"""5 controls and 5 attacks, every one judged outside."""
