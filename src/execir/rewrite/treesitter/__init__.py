"""Rewrite rules for the tree-sitter languages (C++, Java, Go, JavaScript, TypeScript, Ruby, PHP, Rust).

Each rule is a pure function ``(program, syntax, reserved) -> Iterable[SpanEdit]`` over a parsed
:class:`~execir.languages.treesitter.program.Program` and the language's
:class:`~execir.rewrite.treesitter.syntax.Syntax`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from execir.edits import SpanEdit
from execir.languages import get_language
from execir.languages.treesitter.program import Program
from execir.rewrite.treesitter.expressions import de_morgan, swap_commutative
from execir.rewrite.treesitter.rename import rename_local
from execir.rewrite.treesitter.syntax import Syntax, syntax_of

Rule = Callable[[Program, Syntax, frozenset[str]], Iterable[SpanEdit]]

RULES: dict[str, Rule] = {
    "de_morgan": de_morgan,
    "rename_local": rename_local,
    "swap_commutative": swap_commutative,
}
"""Stable rule name -> rule (the same names as Python's rules of the same kind)."""


def _bind(rule: Rule, language: str) -> Callable[[str, frozenset[str]], Iterable[SpanEdit]]:
    def apply(text: str, reserved: frozenset[str]) -> Iterable[SpanEdit]:
        program = get_language(language).parse(text)
        return list(rule(program, syntax_of(language), reserved))

    apply.__doc__ = rule.__doc__
    return apply


def rules_for(language: str) -> dict[str, Callable[[str, frozenset[str]], Iterable[SpanEdit]]]:
    """The rules bound to one tree-sitter language's program text."""
    syntax_of(language)  # unknown languages fail here
    return {name: _bind(rule, language) for name, rule in RULES.items()}


__all__ = ["RULES", "Syntax", "rules_for", "syntax_of"]
