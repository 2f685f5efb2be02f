"""Go: parsed with tree-sitter-go; the shared families of
:mod:`execir.languages.treesitter.families` over :data:`~execir.languages.go.grammar.GRAMMAR`.

HumanEval-X prompts have no ``package`` clause; tree-sitter-go parses their top-level imports and
functions without one. ``is_valid`` also rejects what Go's compiler always rejects and a syntax tree
shows: an unused local, a negative constant index, a missing return, a duplicate ``case``, and an
unused import in a complete file (:mod:`execir.languages.go.validity`).
"""

from __future__ import annotations

import re
from dataclasses import replace

import tree_sitter_go

from execir.languages.base import Language, OperatorSpec, ParseError
from execir.languages.go.grammar import GRAMMAR
from execir.languages.go.operators import range_index_swap
from execir.languages.go.validity import duplicate_cases, missing_returns, negative_constant_indices, unused_imports, unused_locals
from execir.languages.treesitter import Program, make_language
from execir.languages.treesitter.families import operators_for

_SIGNATURE = re.compile(r"^\s*func\s+(?:\([^)]*\)\s*)?(\w+)\s*\(")

OPERATORS = operators_for(GRAMMAR, own=(OperatorSpec("range_index_swap", "variable", range_index_swap),), exclude=("arg_delete",))
"""Every Go operator (the shared families and ``range_index_swap``), in name order; no
``arg_delete``: Go has no optional arguments."""


def entry_point(prompt: str) -> str | None:
    """The name of the last function a prompt opens (``func Median(l []int) float64 {``)."""
    names = [match.group(1) for line in prompt.splitlines() if (match := _SIGNATURE.search(line))]
    return names[-1] if names else None


_PARSED: Language[Program] = make_language("go", tree_sitter_go.language, frozenset({"comment"}), OPERATORS, entry_point=entry_point)


def compiles_plausibly(text: str) -> bool:
    """The text parses and shows none of the compile errors of :mod:`execir.languages.go.validity`."""
    try:
        program = _PARSED.parse(text)
    except ParseError:
        return False
    checks = (unused_locals, negative_constant_indices, missing_returns, duplicate_cases, unused_imports)
    return not any(check(program) for check in checks)


GO: Language[Program] = replace(_PARSED, is_valid=compiles_plausibly)

__all__ = ["GO", "GRAMMAR", "OPERATORS"]
