"""PHP: parsed with tree-sitter-php (its ``php`` grammar: a program opens with ``<?php``); the shared
families of :mod:`execir.languages.treesitter.families` over
:data:`~execir.languages.php.grammar.GRAMMAR`. tree-sitter-php has one ``boolean`` node for
``true`` and ``false``: the two boolean flips are the shared ones with the other literal filled in
from the node's text."""

from __future__ import annotations

import re
from collections.abc import Iterable

import tree_sitter_php

from execir.edits import SpanEdit
from execir.languages.base import Language, OperatorSpec
from execir.languages.php.grammar import FLIP, GRAMMAR
from execir.languages.treesitter import Program, make_language
from execir.languages.treesitter.families import SHARED, SharedOperator, operators_for

_SIGNATURE = re.compile(r"^\s*function\s+&?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_FLIPS = ("bool_literal_flip", "return_bool_flip")


def _flipped(name: str, function: SharedOperator) -> OperatorSpec[Program]:
    def apply(program: Program) -> Iterable[SpanEdit]:
        for edit in function(program, GRAMMAR):
            if edit.after == FLIP:
                before = program.text[edit.start : edit.end]
                yield SpanEdit(edit.start, edit.end, "false" if before.lower() == "true" else "true")
            else:
                yield edit

    apply.__doc__ = function.__doc__
    return OperatorSpec(name, SHARED[name][1], apply)


OPERATORS = tuple(sorted(operators_for(GRAMMAR, exclude=_FLIPS) + tuple(_flipped(name, SHARED[name][0]) for name in _FLIPS), key=lambda spec: spec.name))
"""Every PHP operator, in name order."""


def entry_point(prompt: str) -> str | None:
    """The name of the last function a prompt opens (``function minCost($cost, $m, $n){``)."""
    names = [match.group(1) for line in prompt.splitlines() if (match := _SIGNATURE.search(line))]
    return names[-1] if names else None


PHP: Language[Program] = make_language("php", tree_sitter_php.language_php, frozenset({"comment"}), OPERATORS, entry_point=entry_point)

__all__ = ["GRAMMAR", "OPERATORS", "PHP"]
