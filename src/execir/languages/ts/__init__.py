"""TypeScript: parsed with tree-sitter-typescript; the shared families of
:mod:`execir.languages.treesitter.families` over :data:`~execir.languages.ts.grammar.GRAMMAR`
(JavaScript's description with TypeScript's parameters and declared types)."""

from __future__ import annotations

import re

import tree_sitter_typescript

from execir.languages.base import Language
from execir.languages.treesitter import Program, make_language
from execir.languages.treesitter.families import operators_for
from execir.languages.ts.grammar import GRAMMAR

_SIGNATURE = re.compile(r"^\s*(?:export\s+(?:default\s+)?)?(?:(?:const|let|var)\s+(\w+)\s*(?::[^=]+)?=|(?:async\s+)?function\s*\*?\s*(\w+)\s*[(<])")

OPERATORS = operators_for(GRAMMAR)
"""Every TypeScript operator, in name order."""


def entry_point(prompt: str) -> str | None:
    """The name of the last function a prompt opens (MBXP's ``const min_cost = function (cost:
    number[][]): number {``, ``function median<T>(l: T[]) {``, ``export function f(...)``)."""
    names = [match.group(1) or match.group(2) for line in prompt.splitlines() if (match := _SIGNATURE.search(line))]
    return names[-1] if names else None


TS: Language[Program] = make_language("typescript", tree_sitter_typescript.language_typescript, frozenset({"comment"}), OPERATORS, entry_point=entry_point)

__all__ = ["GRAMMAR", "OPERATORS", "TS"]
