"""TypeScript: parsing, descriptions, the shared families over tree-sitter-typescript (JavaScript's
spellings, TypeScript's parameters and declared types), and mutants and rewrites that tsc transpiles."""

from __future__ import annotations

import importlib
import shutil

import pytest
import tree_sitter

from execir.languages import ParseError, get_language
from execir.languages.treesitter.families import SHARED
from execir.languages.ts import entry_point
from execir.languages.ts.grammar import GRAMMAR
from execir.mutate import generate_mutants
from execir.rewrite import rewrites

TS = get_language("typescript")

PROMPT = """/**
 * Write a function to find the minimum cost path to reach (m, n) from (0, 0).
 *
 * Examples:
 * >>> min_cost([[1, 2, 3], [4, 8, 2], [1, 5, 3]], 2, 2)
 * >>> 8
 */
const min_cost = function (cost: Array<Array<number>>, m: number, n: number) : number  {
"""

PROGRAM = """// vowels at the end
interface Counter { n: number }
const count = function (s: string, extra?: number): number {
  let n: number = 0; /* so far */
  const label: string = 'x';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === 'a' || s[i] === 'e') { n += 1; }
  }
  const seen = new Set<string>([...s]);
  return s.toUpperCase().endsWith('Y') ? n + (extra ?? 0) + seen.size * 0 : n;
}
"""


def test_parse_rejects_broken_programs() -> None:
    with pytest.raises(ParseError, match="typescript"):
        TS.parse("const f = function (a: number { return 1; }")
    assert TS.is_valid(PROGRAM)
    assert TS.is_valid(
        "enum E { A, B }\nclass C<T> implements I { constructor(private readonly v: T) {} }\nexport function f<T>(xs: readonly T[]): T[] { return [...xs]; }\n"
    )


def test_strip_comments_describe_and_entry_point() -> None:
    stripped = TS.strip_comments(PROGRAM)
    assert "//" not in stripped and "/*" not in stripped and TS.is_valid(stripped)
    assert TS.describe(PROMPT) == "Write a function to find the minimum cost path to reach (m, n) from (0, 0)."
    assert entry_point(PROMPT) == "min_cost"
    assert entry_point("export function isPrime<T>(n: number): boolean {\n") == "isPrime"
    assert entry_point("const f: (x: number) => number = (x) => {\n") == "f"


def test_typescript_spellings() -> None:
    operators = {(mutant.operator, mutant.edit.before, mutant.edit.after) for mutant in generate_mutants("t", PROGRAM, "typescript")}
    assert ("compare_swap", "===", "!==") in operators
    assert ("method_swap", "toUpperCase", "toLowerCase") in operators
    assert ("not_insert", "s.toUpperCase().endsWith('Y')", "!(s.toUpperCase().endsWith('Y'))") in operators
    assert ("bool_operand_delete", " || s[i] === 'e'", "") in operators
    touched = {before for _, before, _ in operators}
    assert not touched & {"number", "string", "Set<string>", "Counter"}  # types are never mutated


def test_variable_misuse_uses_declared_types() -> None:
    source = (
        "const f = function (xs: number[], k: number, name: string) {\n  let n: number = 0;\n  let s: string = 'a';\n  let m = 1;\n  return n + m + k;\n}\n"
    )
    afters = {(mutant.edit.before, mutant.edit.after) for mutant in generate_mutants("t", source, "typescript", ["variable_misuse"])}
    assert ("n", "m") in afters and ("n", "k") in afters  # both numbers
    assert ("n", "s") not in afters and ("n", "name") not in afters and ("n", "xs") not in afters


def test_operators_are_the_shared_ones_and_the_grammar_names_real_nodes() -> None:
    assert set(TS.operator_names) >= set(SHARED)
    wheel = importlib.import_module("tree_sitter_typescript")
    language = tree_sitter.Language(wheel.language_typescript())
    assert sorted(kind for kind in set(GRAMMAR.node_types()) if language.id_for_node_kind(kind, True) is None) == []


def test_rewrites_keep_types_and_the_entry_point() -> None:
    program = (
        "const total = function (xs: number[], k: number): number {\n  let acc: number = 0;\n"
        "  for (const x of xs) if (x !== k) acc = acc + x * k;\n  return acc;\n}\n"
    )
    found = rewrites(program, "typescript", entry_point="total")
    renamed = [r.text for r in found if r.rule == "rename_local"]
    assert renamed and all(": number" in text and text.startswith("const total = function (xs: number[], k: number)") for text in renamed)
    assert any(r.rule == "swap_commutative" for r in found)


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_mutants_and_rewrites_transpile() -> None:
    from execir.execute.runtimes import ts

    if ts.native_tsc() is None and shutil.which("tsc") is None:
        pytest.skip("tsc not installed (npm install -g typescript)")
    toolchain = ts.RUNTIME.discover()
    texts = [m.text for m in generate_mutants("t", PROGRAM, "typescript")] + [r.text for r in rewrites(PROGRAM, "typescript", entry_point="count")]
    assert len(texts) > 50
    failed = [text for text in texts if ts.transpile(toolchain, text)[1]]
    assert failed == []
