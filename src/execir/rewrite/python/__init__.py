"""The Python rewrite rules, parsed with ``ast`` and applied as span edits.

Each rule is a pure function ``(tree, source, reserved) -> Iterable[SpanEdit]`` (see
:data:`~execir.rewrite.python.common.Rule`); every edit is one rewrite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from execir.edits import SpanEdit
from execir.languages.python.program import parse
from execir.rewrite.python.common import Rule
from execir.rewrite.python.commutative import swap_commutative
from execir.rewrite.python.comprehensions import comprehension_to_loop, loop_to_comprehension
from execir.rewrite.python.demorgan import de_morgan
from execir.rewrite.python.loops import for_to_while
from execir.rewrite.python.rename import rename_local
from execir.rewrite.python.reorder import reorder_statements

RULES: dict[str, Rule] = {
    "comprehension_to_loop": comprehension_to_loop,
    "de_morgan": de_morgan,
    "for_to_while": for_to_while,
    "loop_to_comprehension": loop_to_comprehension,
    "rename_local": rename_local,
    "reorder_statements": reorder_statements,
    "swap_commutative": swap_commutative,
}
"""Stable rule name -> rule."""


def _bind(rule: Rule) -> Callable[[str, frozenset[str]], Iterable[SpanEdit]]:
    def apply(text: str, reserved: frozenset[str]) -> Iterable[SpanEdit]:
        program = parse(text)
        return list(rule(program.tree, program.source, reserved))

    apply.__doc__ = rule.__doc__
    return apply


def rules_for(language: str) -> dict[str, Callable[[str, frozenset[str]], Iterable[SpanEdit]]]:
    """The Python rules bound to program text (``language`` must be ``python``)."""
    if language != "python":
        raise ValueError(f"python rules asked for {language!r}")
    return {name: _bind(rule) for name, rule in RULES.items()}


__all__ = ["RULES", "rules_for"]
