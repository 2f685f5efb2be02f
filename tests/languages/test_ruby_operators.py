"""Each Ruby operator yields the intended single edits on small sources (negative cases included),
skips unreachable code, and only proposes edits that parse on the MBXP Ruby canonicals."""

from __future__ import annotations

import pytest

from execir.edits import splice, to_edit
from execir.languages import get_language
from execir.languages.ruby.operators import FUNCTIONS, OPERATORS
from execir.mutate.engine import generate_mutants
from execir.tasks.multilingual import mbxp_ruby
from tests.conftest import SHARED_DATA

RUBY = get_language("ruby")

Expected = list[tuple[int, int, str, str]]


def apply(name: str, source: str) -> Expected:
    """(line, column, before, after) of every edit the operator yields, in position order."""
    edits = sorted(set(FUNCTIONS[name](RUBY.parse(source))))
    return [(edit.line, edit.col, edit.before, edit.after) for edit in (to_edit(source, span) for span in edits)]


CASES: list[tuple[str, str, Expected]] = [
    ("arith_swap", "x = a + b * c\n", [(1, 6, "+", "-"), (1, 10, "*", "/")]),
    ("arith_swap", "x = a / b % c ** 2\n", [(1, 6, "/", "%"), (1, 6, "/", "*"), (1, 10, "%", "/"), (1, 14, "**", "*")]),
    ("arith_swap", "s = 'a' + b\nt = [0] * n\n", []),
    ("bitwise_swap", "x = a & b | c ^ d\ny = 1 << n\n", [(1, 6, "&", "|"), (1, 10, "|", "&"), (1, 14, "^", "|"), (2, 6, "<<", ">>")]),
    ("bitwise_swap", "out << 1\n", []),
    ("augassign_swap", "x += 1\ny /= 2\nz ||= 3\ns += 'a'\n", [(1, 2, "+=", "-="), (2, 2, "/=", "%="), (2, 2, "/=", "*=")]),
    ("unary_minus_remove", "x = -y + - 1\n", [(1, 4, "-", ""), (1, 9, "- ", "")]),
    ("compare_swap", "ok = a < b && c == d && s =~ /x/\n", [(1, 7, "<", "<="), (1, 16, "==", "!="), (1, 26, "=~", "!~")]),
    ("compare_flip", "ok = a >= b\n", [(1, 7, ">=", "<=")]),
    ("compare_flip", "ok = a == b\n", []),
    ("bool_swap", "ok = a && b || c\nx = d and e or f\n", [(1, 7, "&&", "||"), (1, 12, "||", "&&"), (2, 6, "and", "or"), (2, 12, "or", "and")]),
    (
        "not_remove",
        "ok = !a\nok = not b\nputs 1 unless c\nuntil d do end\n",
        [
            (1, 5, "!", ""),
            (2, 5, "not ", ""),
            (3, 7, "unless", "if"),
            (4, 0, "until", "while"),
        ],
    ),
    ("not_insert", "if a > b\n  x\nend\n", [(1, 0, "if", "unless")]),
    ("not_insert", "if a\n  x\nelse\n  y\nend\nz = c ? 1 : 2\nw = d + 1 if !e\n", [(1, 3, "a", "!a"), (6, 4, "c", "!c")]),
    ("not_insert", "while a < b do a += 1 end\nx unless y\n", [(1, 0, "while", "until")]),
    ("range_swap", "(0..n).each { |i| p i }\nx = a[1...-1]\n", [(1, 2, "..", "..."), (2, 7, "...", "..")]),
    ("const_incr", "x = 5 + 0\ny = -1\n", [(1, 4, "5", "6"), (2, 4, "-1", "0")]),
    ("const_decr", "x = 5 + 1\ny = -1\nz = 0x1F\n", [(1, 4, "5", "4"), (2, 4, "-1", "-2")]),
    ("const_zero_one", "x = 0\ny = 1\nz = 2\nw = -1\n", [(1, 4, "0", "1"), (2, 4, "1", "0")]),
    ("return_bool_flip", "def f(x)\n  return true if x\n  false\nend\n", [(2, 9, "true", "false"), (3, 2, "false", "true")]),
    ("return_bool_flip", "def f(x)\n  y = true\n  y\nend\n", []),
    (
        "return_const",
        "def f(a)\n  return a.size > 2 if a\n  a.map { |x| x * 2 }\nend\n",
        [
            (2, 9, "a.size > 2", "false"),
            (2, 9, "a.size > 2", "true"),
            (3, 2, "a.map { |x| x * 2 }", "[]"),
        ],
    ),
    ("return_const", "def f(a)\n  return a + 1 if a\n  s = 'x'\n  s\nend\n", [(2, 9, "a + 1", "0"), (4, 2, "s", '""')]),
    ("return_const", "def f(a)\n  g(a)\nend\n", [(2, 2, "g(a)", "nil")]),
    ("off_by_one", "for i in 0..n-1\nend\n", [(1, 9, "0", "-1"), (1, 9, "0", "1"), (1, 12, "n-1", "n"), (1, 12, "n-1", "n-2")]),
    (
        "off_by_one",
        "y = a[i] + h['k'] + b[x || y]\n",
        [
            (1, 6, "i", "i + 1"),
            (1, 6, "i", "i - 1"),
            (1, 22, "x || y", "(x || y) + 1"),
            (1, 22, "x || y", "(x || y) - 1"),
        ],
    ),
    (
        "off_by_one",
        "n.times { |i| }\ns.slice(0, k)\n",
        [
            (1, 0, "n", "n + 1"),
            (1, 0, "n", "n - 1"),
            (2, 8, "0", "-1"),
            (2, 8, "0", "1"),
            (2, 11, "k", "k + 1"),
            (2, 11, "k", "k - 1"),
        ],
    ),
    (
        "guard_delete",
        "def f(x)\n  return 0 if x.nil?\n  if x > 1 then return 1 end\n  raise 'no' unless x\n  x += 1 if x\n  x\nend\n",
        [
            (2, 0, "  return 0 if x.nil?\n", ""),
            (3, 0, "  if x > 1 then return 1 end\n", ""),
            (4, 0, "  raise 'no' unless x\n", ""),
        ],
    ),
    ("guard_delete", "def f(x)\n  if x\n    return 1\n  else\n    return 2\n  end\nend\n", []),
    ("loop_control_swap", "a.each { |x| next if x; break }\n", [(1, 13, "next", "break"), (1, 24, "break", "next")]),
    (
        "method_swap",
        "y = s.upcase.start_with?(p)\nz = a.select { |x| x }.first\n",
        [
            (1, 6, "upcase", "downcase"),
            (1, 13, "start_with?", "end_with?"),
            (2, 6, "select", "reject"),
            (2, 23, "first", "last"),
        ],
    ),
    ("method_swap", "b = a.sort.reverse\nc = a.sort\nd = a.sort_by { |x| -x }\n", [(1, 10, ".reverse", ""), (2, 10, "", ".reverse"), (3, 24, "", ".reverse")]),
    ("min_max_swap", "x = [a, b].max + c.min_by { |y| y }\n", [(1, 11, "max", "min"), (1, 19, "min_by", "max_by")]),
    ("arg_swap", "f(a, b, b)\ng(x, *y)\nh(k: 1, j: 2)\n", [(1, 2, "a, b", "b, a")]),
    ("arg_delete", "x = s.slice(0, n)\ny = w.join(' ')\nz = Math.sqrt(2)\nputs 1, 2\n", [(1, 12, "0, ", ""), (1, 13, ", n", ""), (2, 10, "(' ')", "")]),
    ("arg_delete", "def g(a, b)\n  a\nend\ng(1, 2)\nh(1, 2)\n", [(5, 2, "1, ", ""), (5, 3, ", 2", "")]),
    (
        "call_unwrap",
        "x = s.to_i.abs\ny = Integer(z)\nok = a.empty?\nw = b.map { |c| c }\n",
        [
            (1, 5, ".to_i", ""),
            (1, 10, ".abs", ""),
            (2, 4, "Integer(z)", "z"),
        ],
    ),
    ("call_unwrap", "def f(a)\n  a.sort\n  a.uniq\nend\n", [(3, 3, ".uniq", "")]),
    ("call_unwrap", "x = a.sort.reverse\nconsole.log(a + b)\n", [(1, 5, ".sort", "")]),
    ("attribute_swap", "x = a.uniq\ny = b.sort\nz = c.to_s\nw = d.size + e.length\n", [(1, 6, "uniq", "sort"), (2, 6, "sort", "uniq")]),
    (
        "binary_operand_delete",
        "x = a - b\ny = 'p' + q\nr = a + b + c\nout << w\n",
        [
            (1, 4, "a - b", "a"),
            (1, 4, "a - b", "b"),
            (2, 4, "'p' + q", "q"),
            (3, 4, "a + b", "a"),
            (3, 4, "a + b", "b"),
            (3, 4, "a + b + c", "a + b"),
        ],
    ),
    ("binary_operand_delete", "x = s.size - 1\n", [(1, 4, "s.size - 1", "s.size")]),
    (
        "binary_operand_delete",
        "y = (c + d) * 2\nz = f (a - b)\n",
        [
            (1, 4, "(c + d)", "c"),
            (1, 4, "(c + d)", "d"),
            (1, 4, "(c + d) * 2", "(c + d)"),
            (2, 6, "(a - b)", "a"),
            (2, 6, "(a - b)", "b"),
        ],
    ),
    ("bool_operand_delete", "ok = a && b\nx = 1 or y\n", [(1, 5, "a && b", "a"), (1, 5, "a && b", "b")]),
    (
        "operand_swap",
        "x = a - b\ny = a + b\nz = a / (b - c)\nw = a - b - c\ns = 'p' + q\n",
        [
            (1, 4, "a - b", "b - a"),
            (3, 4, "a / (b - c)", "(b - c) / a"),
            (3, 9, "b - c", "c - b"),
            (4, 4, "a - b", "b - a"),
            (4, 4, "a - b - c", "c - (a - b)"),
        ],
    ),
    ("operand_swap", "x = n - 1\ny = -1 - n\nz = a < b\nw = s + t.to_s\n", [(4, 4, "s + t.to_s", "t.to_s + s")]),
    ("subscript_swap", "x = m[i][j] + s[0, n] + t[k][k]\n", [(1, 6, "i][j", "j][i"), (1, 16, "0, n", "n, 0")]),
    ("variable_misuse", "def f(a, b)\n  c = a + 1\n  c * b\nend\n", [(2, 6, "a", "b"), (3, 2, "c", "a"), (3, 2, "c", "b"), (3, 6, "b", "a"), (3, 6, "b", "c")]),
    (
        "variable_misuse",
        "def f(xs, n)\n  m = [xs[0]]\n  xs.each { |x| n += x }\n  m\nend\n",
        [
            (2, 7, "xs", "n"),
            (3, 2, "xs", "m"),
            (3, 2, "xs", "n"),
            (3, 21, "x", "n"),
            (3, 21, "x", "xs"),
            (4, 2, "m", "n"),
            (4, 2, "m", "xs"),
        ],
    ),
    ("variable_misuse", "def f(n)\n  for i in 0..n\n    p i\n  end\nend\n", [(3, 6, "i", "n")]),
    ("variable_misuse", "def f(a, c)\n  b = c\n  b\nend\n", [(2, 6, "c", "a"), (3, 2, "b", "a"), (3, 2, "b", "c")]),
    ("variable_misuse", "def f(a, b)\n  x = 1\n\n\n\n  p a\nend\n", []),
    (
        "element_delete",
        "x = [1, 2, 3]\ny = {a: 1, b: 2}\nz = [4]\nw = %w[p q]\n",
        [
            (1, 5, "1, ", ""),
            (1, 8, "2, ", ""),
            (1, 9, ", 3", ""),
            (2, 5, "a: 1, ", ""),
            (2, 9, ", b: 2", ""),
            (4, 7, "p ", ""),
            (4, 8, " q", ""),
        ],
    ),
    (
        "statement_delete",
        "def f(a)\n  x = 1\n  a.sort\n  a.push(x)\n  a.sort!\n  a << 2\n  return x if a\n  x\nend\n",
        [
            (2, 0, "  x = 1\n", ""),
            (4, 0, "  a.push(x)\n", ""),
            (5, 0, "  a.sort!\n", ""),
            (6, 0, "  a << 2\n", ""),
        ],
    ),
    ("statement_delete", "def f(a)  b = 1\n  b\nend\n", [(1, 8, "  b = 1", "")]),
    (
        "condition_const",
        "if a\n  x\nend\nwhile b do end\nuntil c do end\ny = d ? 1 : 2\nz if true\n",
        [
            (1, 3, "a", "false"),
            (1, 3, "a", "true"),
            (4, 6, "b", "false"),
            (5, 6, "c", "true"),
        ],
    ),
    (
        "term_insert",
        "def f(a)\n  x = a * 2\n  y = a\n  a[i + 1]\n  x - y\nend\n",
        [
            (2, 6, "a * 2", "a * 2 + 1"),
            (2, 6, "a * 2", "a * 2 - 1"),
            (5, 2, "x - y", "x - y + 1"),
            (5, 2, "x - y", "x - y - 1"),
        ],
    ),
    (
        "term_insert",
        "ok = s.length == n % 2\ny = n - 1\nz = 1.5 * n\n",
        [
            (1, 5, "s.length", "s.length + 1"),
            (1, 5, "s.length", "s.length - 1"),
            (1, 17, "n % 2", "n % 2 + 1"),
            (1, 17, "n % 2", "n % 2 - 1"),
        ],
    ),
]


@pytest.mark.parametrize(("name", "source", "expected"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_operator_edits(name: str, source: str, expected: Expected) -> None:
    assert apply(name, source) == expected
    for line, col, before, after in expected:
        lines = source.split("\n")
        start = sum(len(text) + 1 for text in lines[: line - 1]) + col
        mutated = source[:start] + after + source[start + len(before) :]
        assert RUBY.is_valid(mutated), mutated


def test_every_operator_has_a_case() -> None:
    assert {name for name, _, _ in CASES} == set(FUNCTIONS)
    assert {name for name, _, expected in CASES if expected} == set(FUNCTIONS)


def test_unreachable_code_is_not_mutated() -> None:
    source = "def f(x)\n  return x + 1\n  y = x - 2\nend\n"
    edits = [edit for _, edit in RUBY.candidates(source)]
    assert edits and all(edit.start < source.index("y = x") for edit in edits)
    assert apply("arith_swap", source) == [(2, 11, "+", "-"), (3, 8, "-", "+")]  # the bare function sees both


def test_multibyte_text_keeps_character_offsets() -> None:
    source = 'def f(s)\n  t = "é€" + s\n  t.size - 1\nend\n'
    assert apply("arith_swap", source) == [(3, 9, "-", "+")]
    assert apply("operand_swap", source) == []  # a literal keeps its side
    assert apply("binary_operand_delete", source) == [(2, 6, '"é€" + s', "s"), (3, 2, "t.size - 1", "t.size")]
    assert all(RUBY.is_valid(splice(source, edit)) for _, edit in RUBY.candidates(source))


def test_engine_mutants_are_single_edits_and_stable() -> None:
    source = "def f(a, n)\n  s = 0\n  for i in 0..n-1\n    s += a[i] if a[i] > 0\n  end\n  s\nend\n"
    first = generate_mutants("t", source, "ruby")
    again = generate_mutants("t", source, "ruby")
    assert first == again and len(first) > 20
    assert len({m.text for m in first}) == len(first)
    assert {m.operator for m in first} <= set(RUBY.operator_names)


@pytest.fixture(scope="module")
def canonicals() -> list[str]:
    """The MBXP Ruby canonical programs (skipped when ../shared/data is absent)."""
    if not (SHARED_DATA / "mxeval" / "mbxp" / "mbrbp_release_v1.2.jsonl").is_file():
        pytest.skip("../shared/data (MBXP Ruby) is not present")
    return [task.program for task in mbxp_ruby.load(SHARED_DATA)]


@pytest.mark.parametrize("operator", [spec.name for spec in OPERATORS])
def test_operator_output_parses_on_mbxp(operator: str, canonicals: list[str]) -> None:
    spec = next(spec for spec in OPERATORS if spec.name == operator)
    invalid = []
    for program in canonicals:
        for edit in spec.apply(RUBY.parse(program)):
            if not RUBY.is_valid(splice(program, edit)):
                invalid.append(to_edit(program, edit))
    assert not invalid, invalid[:5]


def test_mbxp_candidates(canonicals: list[str]) -> None:
    counts = [sum(1 for _ in RUBY.candidates(program)) for program in canonicals]
    fired = {name for program in canonicals for name, _ in RUBY.candidates(program)}
    assert len(canonicals) == 784 and sorted(counts)[len(counts) // 2] >= 8
    assert fired == set(RUBY.operator_names)
