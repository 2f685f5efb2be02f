"""Go: parsing (fragments without ``package``), comments, descriptions, the Go spellings of the
shared families and the compile checks ``is_valid`` makes (unused locals and imports)."""

from __future__ import annotations

import pytest

from execir.languages import ParseError, get_language
from execir.languages.go import entry_point
from execir.languages.go.validity import (
    duplicate_cases,
    missing_returns,
    negative_constant_indices,
    unused_imports,
    unused_locals,
)
from execir.mutate import generate_mutants

GO = get_language("go")

PROMPT = """import (
    "math"
)

// Return Median of elements in the list l.
// >>> Median([3, 1, 2, 4, 5])
// 3.0
func Median(l []int) float64 {
"""

PROGRAM = """import (
    "math"
)

// Distance of the farthest pair.
func Far(xs []float64) float64 {
    best := 0.0 // so far
    for i := 0; i < len(xs); i++ {
        for j := i + 1; j < len(xs); j++ {
            d := math.Abs(xs[i] - xs[j])
            if d > best {
                best = d
            }
        }
    }
    return best
}
"""


def test_fragments_without_package_parse() -> None:
    assert GO.parse(PROGRAM) is not None
    with pytest.raises(ParseError, match="go"):
        GO.parse("func f( { }")


def test_strip_comments_and_describe() -> None:
    stripped = GO.strip_comments(PROGRAM)
    assert "//" not in stripped and GO.is_valid(stripped)
    assert GO.describe(PROMPT) == "Return Median of elements in the list l."
    assert entry_point(PROMPT) == "Median"


@pytest.mark.parametrize(
    ("body", "unused"),
    [
        ("x := 0\n    return 1", ["x"]),
        ("x := 0\n    x = 2\n    return 1", ["x"]),
        ("x := 0\n    x += 2\n    return 1", []),
        ("x := 0\n    x++\n    return 1", []),
        ("xs := []int{}\n    xs[0] = 1\n    return 1", []),
        ("for i, c := range s {\n        _ = c\n    }\n    return 1", ["i"]),
        ("f := func() int { return 1 }\n    return f()", []),
    ],
)
def test_unused_locals(body: str, unused: list[str]) -> None:
    program = GO.parse(f"func F(s string) int {{\n    {body}\n}}\n")
    assert [program.source(node) for node in unused_locals(program)] == unused


def test_unused_imports_only_in_complete_files() -> None:
    fragment = 'import (\n    "math"\n    "strings"\n)\nfunc F() float64 { return math.Abs(1) }\n'
    assert unused_imports(GO.parse(fragment)) == []
    assert unused_imports(GO.parse("package main\n\n" + fragment)) == ["strings"]
    assert not GO.is_valid("package main\n\n" + fragment) and GO.is_valid(fragment)


def test_negative_constant_indices_are_invalid() -> None:
    program = GO.parse("func F(xs []int) int {\n    ys := make([]int, -1)\n    return xs[-1] + ys[0] + len(xs[:-2])\n}\n")
    assert [program.source(node) for node in negative_constant_indices(program)] == ["-1", "-1", "-2"]


def test_mutants_keep_every_local_used() -> None:
    mutants = generate_mutants("t", PROGRAM, "go")
    assert mutants and all(GO.is_valid(mutant.text) for mutant in mutants)
    deleted = {mutant.edit.before.strip() for mutant in mutants if mutant.operator == "statement_delete"}
    assert "best = d" in deleted  # best is still read by the comparison and the return
    assert not any(before.startswith("if d > best") for before in deleted)  # d would go unused


def test_go_spellings() -> None:
    operators = {(mutant.operator, mutant.edit.before, mutant.edit.after) for mutant in generate_mutants("t", PROGRAM, "go")}
    assert ("call_unwrap", "math.Abs(xs[i] - xs[j])", "xs[i] - xs[j]") in operators
    assert ("off_by_one", "len(xs)", "len(xs) + 1") in operators
    assert "arg_delete" not in GO.operator_names


def test_range_index_swap() -> None:
    source = (
        "func F(xs []int) int {\n    s := 0\n    for _, x := range xs {\n        s += x\n    }\n"
        "    for i, y := range xs {\n        s += i * y\n    }\n    return s\n}\n"
    )
    edits = [(mutant.edit.before, mutant.edit.after) for mutant in generate_mutants("t", source, "go", ["range_index_swap"])]
    assert edits == [("_, x", "x")]
    assert GO.family_of("range_index_swap") == "variable"


@pytest.mark.parametrize(
    ("body", "missing"),
    [
        ("return 1", False),
        ("if x > 0 {\n        return 1\n    }", True),
        ("if x > 0 {\n        return 1\n    } else {\n        return 2\n    }", False),
        ("for {\n    }", False),
        ('panic("no")', False),
        ("switch x {\n    case 0:\n        return 1\n    default:\n        return 2\n    }", False),
        ("switch x {\n    case 0:\n        return 1\n    }", True),
    ],
)
def test_missing_returns(body: str, missing: bool) -> None:
    program = GO.parse(f"func F(x int) int {{\n    {body}\n}}\n")
    assert bool(missing_returns(program)) is missing


def test_duplicate_cases() -> None:
    program = GO.parse("func F(x int) int {\n    switch x {\n    case 1:\n        return 1\n    case 2, 1:\n        return 2\n    }\n    return 0\n}\n")
    assert [program.source(node) for node in duplicate_cases(program)] == ["1"]
