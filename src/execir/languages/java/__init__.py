"""Java: parsed with tree-sitter-java; the shared families of
:mod:`execir.languages.treesitter.families` over :data:`~execir.languages.java.grammar.GRAMMAR`."""

from __future__ import annotations

import re

import tree_sitter_java

from execir.languages.base import STATEMENT_KEYWORDS, Language, OperatorSpec
from execir.languages.java.grammar import GRAMMAR
from execir.languages.java.operators import equals_identity_swap
from execir.languages.treesitter import Program, make_language
from execir.languages.treesitter.families import operators_for

_SIGNATURE = re.compile(r"(\w+)\s*\([^()]*\)\s*(?:throws [\w., ]+)?\{?\s*$")

OPERATORS = operators_for(GRAMMAR, own=(OperatorSpec("equals_identity_swap", "operator", equals_identity_swap),))
"""Every Java operator (the shared families and ``equals_identity_swap``), in name order."""


def entry_point(prompt: str) -> str | None:
    """The name of the last method a prompt opens (``public double median(List<Integer> l) {``);
    statements that open a block the same way (``if (t > 3) {``, ``while (ok) {``) are no methods."""
    names = [match.group(1) for line in prompt.splitlines() if (match := _SIGNATURE.search(line)) and match.group(1) not in STATEMENT_KEYWORDS]
    return names[-1] if names else None


JAVA: Language[Program] = make_language("java", tree_sitter_java.language, frozenset({"line_comment", "block_comment"}), OPERATORS, entry_point=entry_point)

__all__ = ["GRAMMAR", "JAVA", "OPERATORS"]
